//! IBM's MQ classes for Java see MQINQ's MQCC_WARNING with MQRC_SELECTOR_NOT_FOR_TYPE in the
//! MQINQ reply (tests/java InquireWarnings). Needs a JDK and Maven, as ibm_java_client.rs.

mod support;

use ferrite_server::ServerConfig;
use support::java::run_java;
use support::{listen, start_with};

#[test]
fn ibm_mq_classes_for_java_see_selector_not_for_type() {
    let listener = listen(start_with(&["FERRITE.INQ.Q"], ServerConfig::default()));
    let output = run_java(
        "InquireWarnings",
        &[
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            "DEV.APP.SVRCONN".to_string(),
            "FERRITE.INQ.Q".to_string(),
        ],
    );
    assert!(output.contains("2 passed, 0 failed"), "every check ran");
}
