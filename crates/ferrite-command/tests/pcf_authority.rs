//! MQCMD_SET_AUTH_REC, MQCMD_DELETE_AUTH_REC, MQCMD_INQUIRE_AUTH_RECS and
//! MQCMD_INQUIRE_ENTITY_AUTH with MQ's parameter identifiers: records set and removed, what
//! the inquiries answer, agreement with MQSC, and the reason (and parameter) of each fault.

mod support;

use ferrite_command::pcf::{Parameter, PcfMessage};
use ferrite_command::{run_command, CommandProcessor};
use ferrite_constants::{
    completion::*, misc::*, object_type::*, pcf::*, pcf_reason::*, pcf_selector::*, reason::*,
};

fn send(processor: &CommandProcessor, command: i32, parameters: Vec<Parameter>) -> Vec<PcfMessage> {
    support::send_pcf(processor, command, parameters)
}

/// A failure's reason and the parameter it names.
type Fault = (i32, Option<i32>);

/// The responses' parameters, or the failure's reason and the parameter it names.
fn outcome(responses: Vec<PcfMessage>) -> Result<Vec<Vec<Parameter>>, Fault> {
    let first = &responses[0];
    if first.header.comp_code != MQCC_OK {
        assert_eq!(first.header.comp_code, MQCC_FAILED, "{first:?}");
        let parameter = first.parameters.iter().find_map(|p| match p {
            Parameter::Integer { parameter, value } if *parameter == MQIACF_PARAMETER_ID => {
                Some(*value)
            }
            _ => None,
        });
        return Err((first.header.reason, parameter));
    }
    Ok(responses.into_iter().map(|r| r.parameters).collect())
}

fn run(
    processor: &CommandProcessor,
    command: i32,
    parameters: Vec<Parameter>,
) -> Result<Vec<Vec<Parameter>>, Fault> {
    outcome(send(processor, command, parameters))
}

fn principals(names: &[&str]) -> Parameter {
    Parameter::StringList {
        parameter: MQCACF_PRINCIPAL_ENTITY_NAMES,
        values: names.iter().map(|n| n.to_string()).collect(),
    }
}

fn groups(names: &[&str]) -> Parameter {
    Parameter::StringList {
        parameter: MQCACF_GROUP_ENTITY_NAMES,
        values: names.iter().map(|n| n.to_string()).collect(),
    }
}

fn auths(id: i32, values: &[i32]) -> Parameter {
    Parameter::IntegerList {
        parameter: id,
        values: values.to_vec(),
    }
}

fn authorization_list(parameters: &[Parameter]) -> Vec<i32> {
    parameters
        .iter()
        .find_map(|p| match p {
            Parameter::IntegerList { parameter, values }
                if *parameter == MQIACF_AUTHORIZATION_LIST =>
            {
                Some(values.clone())
            }
            _ => None,
        })
        .expect("AuthorizationList")
}

#[test]
fn records_are_set_inquired_and_deleted_as_with_mqsc() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.Q"]);
    let processor = CommandProcessor::new(queue_manager.clone());
    run(
        &processor,
        MQCMD_SET_AUTH_REC,
        vec![
            Parameter::string(MQCACF_AUTH_PROFILE_NAME, "APP.*"),
            Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q),
            principals(&["app", "bob"]),
            groups(&["apps"]),
            auths(
                MQIACF_AUTH_ADD_AUTHS,
                &[MQAUTH_OUTPUT, MQAUTH_INPUT, MQAUTH_BROWSE],
            ),
        ],
    )
    .unwrap();
    run(
        &processor,
        MQCMD_SET_AUTH_REC,
        vec![
            Parameter::string(MQCACF_AUTH_PROFILE_NAME, "APP.*"),
            Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q),
            principals(&["bob"]),
            auths(MQIACF_AUTH_REMOVE_AUTHS, &[MQAUTH_INPUT]),
        ],
    )
    .unwrap();
    run(
        &processor,
        MQCMD_SET_AUTH_REC,
        vec![
            Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q_MGR),
            principals(&["app"]),
            auths(MQIACF_AUTH_ADD_AUTHS, &[MQAUTH_CONNECT]),
        ],
    )
    .unwrap();
    // MQSC sees what PCF set.
    let shown = run_command(&queue_manager, "DISPLAY AUTHREC PRINCIPAL('bob')").text();
    assert!(shown.contains("AUTHLIST(BROWSE,PUT)"), "{shown}");

    // All matching the object name APP.Q, for bob's records only.
    let records = run(
        &processor,
        MQCMD_INQUIRE_AUTH_RECS,
        vec![
            Parameter::integer(
                MQIACF_AUTH_OPTIONS,
                MQAUTHOPT_NAME_ALL_MATCHING | MQAUTHOPT_ENTITY_EXPLICIT,
            ),
            Parameter::string(MQCACF_AUTH_PROFILE_NAME, "APP.Q"),
            Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_ALL),
            Parameter::string(MQCACF_ENTITY_NAME, "bob"),
            Parameter::integer(MQIACF_ENTITY_TYPE, MQZAET_PRINCIPAL),
        ],
    )
    .unwrap();
    assert_eq!(records.len(), 1, "{records:?}");
    assert!(records[0].contains(&Parameter::string(MQCACF_AUTH_PROFILE_NAME, "APP.*")));
    let mut list = authorization_list(&records[0]);
    list.sort();
    assert_eq!(list, [MQAUTH_BROWSE, MQAUTH_OUTPUT]);
    // Every record of the queue type.
    let records = run(
        &processor,
        MQCMD_INQUIRE_AUTH_RECS,
        vec![
            Parameter::integer(MQIACF_AUTH_OPTIONS, MQAUTHOPT_NAME_ALL_MATCHING),
            Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q),
        ],
    )
    .unwrap();
    assert_eq!(records.len(), 3, "{records:?}");

    // What app may do to APP.Q.
    let entity = run(
        &processor,
        MQCMD_INQUIRE_ENTITY_AUTH,
        vec![
            Parameter::string(MQCACF_ENTITY_NAME, "app"),
            Parameter::integer(MQIACF_ENTITY_TYPE, MQZAET_PRINCIPAL),
            Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q),
            Parameter::string(MQCACF_OBJECT_NAME, "APP.Q"),
        ],
    )
    .unwrap();
    let mut list = authorization_list(&entity[0]);
    list.sort();
    assert_eq!(list, [MQAUTH_BROWSE, MQAUTH_INPUT, MQAUTH_OUTPUT]);

    run(
        &processor,
        MQCMD_DELETE_AUTH_REC,
        vec![
            Parameter::string(MQCACF_AUTH_PROFILE_NAME, "APP.*"),
            Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q),
            principals(&["app", "bob"]),
        ],
    )
    .unwrap();
    assert_eq!(queue_manager.authority_records().records().len(), 2);
    assert_eq!(
        run(
            &processor,
            MQCMD_DELETE_AUTH_REC,
            vec![
                Parameter::string(MQCACF_AUTH_PROFILE_NAME, "APP.*"),
                Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q),
                principals(&["app"]),
            ],
        )
        .unwrap_err()
        .0,
        MQRC_UNKNOWN_OBJECT_NAME
    );
}

#[test]
fn faults_answer_mqs_reasons_and_change_nothing() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = CommandProcessor::new(queue_manager.clone());
    let profile = || Parameter::string(MQCACF_AUTH_PROFILE_NAME, "APP.*");
    let queue = || Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q);
    let put = || auths(MQIACF_AUTH_ADD_AUTHS, &[MQAUTH_OUTPUT]);
    let cases: Vec<(Vec<Parameter>, Fault)> = vec![
        (
            vec![profile(), principals(&["app"]), put()],
            (MQRCCF_OBJECT_TYPE_MISSING, None),
        ),
        (
            vec![
                profile(),
                Parameter::integer(MQIACF_OBJECT_TYPE, 4242),
                principals(&["app"]),
                put(),
            ],
            (MQRCCF_PARM_VALUE_ERROR, Some(MQIACF_OBJECT_TYPE)),
        ),
        (
            vec![profile(), queue(), put()],
            (MQRCCF_ENTITY_NAME_MISSING, None),
        ),
        (
            vec![profile(), queue(), principals(&["a b"]), put()],
            (MQRC_UNKNOWN_ENTITY, Some(MQCACF_PRINCIPAL_ENTITY_NAMES)),
        ),
        (
            vec![
                Parameter::string(MQCACF_AUTH_PROFILE_NAME, "APP**"),
                queue(),
                principals(&["app"]),
                put(),
            ],
            (MQRCCF_PROFILE_NAME_ERROR, Some(MQCACF_AUTH_PROFILE_NAME)),
        ),
        (
            vec![profile(), queue(), principals(&["app"])],
            (MQRCCF_AUTH_VALUE_MISSING, None),
        ),
        (
            vec![
                profile(),
                queue(),
                principals(&["app"]),
                auths(MQIACF_AUTH_ADD_AUTHS, &[MQAUTH_CONNECT]),
            ],
            (MQRCCF_AUTH_VALUE_ERROR, Some(MQIACF_AUTH_ADD_AUTHS)),
        ),
        (
            vec![
                profile(),
                queue(),
                principals(&["app"]),
                auths(MQIACF_AUTH_ADD_AUTHS, &[999]),
            ],
            (MQRCCF_AUTH_VALUE_ERROR, Some(MQIACF_AUTH_ADD_AUTHS)),
        ),
        (
            vec![
                profile(),
                queue(),
                principals(&["app"]),
                put(),
                Parameter::integer(MQIA_MAX_Q_DEPTH_TEST, 1),
            ],
            (MQRCCF_CFIN_PARM_ID_ERROR, Some(MQIA_MAX_Q_DEPTH_TEST)),
        ),
        (
            vec![
                Parameter::string(MQCACF_AUTH_PROFILE_NAME, "OTHER"),
                Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q_MGR),
                principals(&["app"]),
                auths(MQIACF_AUTH_ADD_AUTHS, &[MQAUTH_CONNECT]),
            ],
            (MQRCCF_PROFILE_NAME_ERROR, Some(MQCACF_AUTH_PROFILE_NAME)),
        ),
    ];
    for (parameters, expected) in cases {
        let described = format!("{parameters:?}");
        assert_eq!(
            run(&processor, MQCMD_SET_AUTH_REC, parameters).unwrap_err(),
            expected,
            "{described}"
        );
    }
    assert!(queue_manager.authority_records().records().is_empty());
    // Inquiries: Options required and consistent; nothing found.
    for options in [
        None,
        Some(0),
        Some(MQAUTHOPT_NAME_EXPLICIT | MQAUTHOPT_ENTITY_SET),
    ] {
        let mut parameters = vec![Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_ALL)];
        if let Some(options) = options {
            parameters.push(Parameter::integer(MQIACF_AUTH_OPTIONS, options));
        }
        let (reason, parameter) = run(&processor, MQCMD_INQUIRE_AUTH_RECS, parameters).unwrap_err();
        assert!(
            matches!(
                reason,
                MQRCCF_PARM_COUNT_TOO_SMALL | MQRCCF_PARM_VALUE_ERROR
            ),
            "{reason}"
        );
        assert_eq!(parameter, Some(MQIACF_AUTH_OPTIONS));
    }
    assert_eq!(
        run(
            &processor,
            MQCMD_INQUIRE_AUTH_RECS,
            vec![
                Parameter::integer(MQIACF_AUTH_OPTIONS, MQAUTHOPT_NAME_ALL_MATCHING),
                Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_ALL),
            ],
        )
        .unwrap_err()
        .0,
        MQRC_UNKNOWN_OBJECT_NAME
    );
}

/// A parameter identifier none of the authority commands takes.
const MQIA_MAX_Q_DEPTH_TEST: i32 = ferrite_constants::selector::MQIA_MAX_Q_DEPTH;
