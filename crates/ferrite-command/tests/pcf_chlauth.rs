//! MQCMD_SET_CHLAUTH_REC and MQCMD_INQUIRE_CHLAUTH_RECS: records set through PCF with MQ's
//! parameter identifiers and values, what each fault answers (reason and parameter), the
//! inquiry's type, match, RUNCHECK and attribute selection, and agreement with MQSC's
//! SET/DISPLAY CHLAUTH on the same records.

mod support;

use ferrite_command::pcf::{Parameter, PcfMessage};
use ferrite_command::{run_command, CommandProcessor};
use ferrite_constants::{
    completion::*, misc::*, pcf::*, pcf_reason::*, pcf_selector::*, selector::MQCA_CHLAUTH_DESC,
};

fn send(processor: &CommandProcessor, command: i32, parameters: Vec<Parameter>) -> Vec<PcfMessage> {
    support::send_pcf(processor, command, parameters)
}

fn string(id: i32, value: &str) -> Parameter {
    Parameter::string(id, value)
}

fn list(id: i32, values: &[&str]) -> Parameter {
    Parameter::StringList {
        parameter: id,
        values: values.iter().map(|v| v.to_string()).collect(),
    }
}

fn set(processor: &CommandProcessor, parameters: Vec<Parameter>) -> Result<(), (i32, Option<i32>)> {
    let responses = send(processor, MQCMD_SET_CHLAUTH_REC, parameters);
    assert_eq!(responses.len(), 1, "{responses:?}");
    let response = &responses[0];
    if response.header.comp_code == MQCC_OK {
        assert_eq!(response.header.reason, 0);
        assert!(response.parameters.is_empty(), "{response:?}");
        return Ok(());
    }
    assert_eq!(response.header.comp_code, MQCC_FAILED, "{response:?}");
    let parameter = response
        .parameters
        .iter()
        .find(|p| p.id() == MQIACF_PARAMETER_ID)
        .map(|p| match p {
            Parameter::Integer { value, .. } => *value,
            other => panic!("{other:?}"),
        });
    Err((response.header.reason, parameter))
}

fn inquire(
    processor: &CommandProcessor,
    parameters: Vec<Parameter>,
) -> Result<Vec<Vec<Parameter>>, (i32, Option<i32>)> {
    let responses = send(processor, MQCMD_INQUIRE_CHLAUTH_RECS, parameters);
    if responses[0].header.comp_code != MQCC_OK {
        let parameter = responses[0].parameters.iter().find_map(|p| match p {
            Parameter::Integer { parameter, value } if *parameter == MQIACF_PARAMETER_ID => {
                Some(*value)
            }
            _ => None,
        });
        return Err((responses[0].header.reason, parameter));
    }
    Ok(responses.into_iter().map(|r| r.parameters).collect())
}

fn integer(parameters: &[Parameter], id: i32) -> Option<i32> {
    parameters.iter().find_map(|p| match p {
        Parameter::Integer { parameter, value } if *parameter == id => Some(*value),
        _ => None,
    })
}

fn text(parameters: &[Parameter], id: i32) -> Option<String> {
    parameters.iter().find_map(|p| match p {
        Parameter::String { parameter, value } if *parameter == id => {
            Some(value.trim_end().to_string())
        }
        _ => None,
    })
}

fn strings(parameters: &[Parameter], id: i32) -> Option<Vec<String>> {
    parameters.iter().find_map(|p| match p {
        Parameter::StringList { parameter, values } if *parameter == id => Some(
            values
                .iter()
                .map(|value| value.trim_end().to_string())
                .collect(),
        ),
        _ => None,
    })
}

fn block_user(profile: &str, users: &[&str]) -> Vec<Parameter> {
    vec![
        string(MQCACH_CHANNEL_NAME, profile),
        Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_BLOCKUSER),
        list(MQCACH_MCA_USER_ID_LIST, users),
    ]
}

fn address_map(profile: &str, address: &str, source: i32) -> Vec<Parameter> {
    vec![
        string(MQCACH_CHANNEL_NAME, profile),
        Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_ADDRESSMAP),
        string(MQCACH_CONNECTION_NAME, address),
        Parameter::integer(MQIACH_USER_SOURCE, source),
    ]
}

#[test]
fn set_adds_merges_replaces_and_removes_records() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = CommandProcessor::new(queue_manager.clone());
    // BLOCKUSER: ADD merges the lists, REMOVE with entries removes those entries.
    set(&processor, block_user("APP.*", &["alice", "bob"])).unwrap();
    let mut more = block_user("APP.*", &["carol"]);
    more.push(string(MQCA_CHLAUTH_DESC, "no admins"));
    more.push(Parameter::integer(MQIACH_WARNING, MQWARN_YES));
    set(&processor, more).unwrap();
    let found = inquire(&processor, vec![string(MQCACH_CHANNEL_NAME, "APP.*")]).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        text(&found[0], MQCACH_CHANNEL_NAME).as_deref(),
        Some("APP.*")
    );
    assert_eq!(
        integer(&found[0], MQIACF_CHLAUTH_TYPE),
        Some(MQCAUT_BLOCKUSER)
    );
    assert_eq!(
        strings(&found[0], MQCACH_MCA_USER_ID_LIST).unwrap(),
        ["alice", "bob", "carol"]
    );
    assert_eq!(
        text(&found[0], MQCA_CHLAUTH_DESC).as_deref(),
        Some("no admins")
    );
    assert_eq!(integer(&found[0], MQIACH_WARNING), Some(MQWARN_YES));
    let mut remove = block_user("APP.*", &["bob"]);
    remove.push(Parameter::integer(MQIACF_ACTION, MQACT_REMOVE));
    set(&processor, remove).unwrap();
    let found = inquire(&processor, vec![string(MQCACH_CHANNEL_NAME, "APP.*")]).unwrap();
    assert_eq!(
        strings(&found[0], MQCACH_MCA_USER_ID_LIST).unwrap(),
        ["alice", "carol"]
    );

    // ADDRESSMAP: ADD of an existing mapping fails, REPLACE changes it, REMOVE deletes it.
    set(
        &processor,
        address_map("APP.SVRCONN", "10.1.*", MQUSRC_CHANNEL),
    )
    .unwrap();
    assert_eq!(
        set(
            &processor,
            address_map("APP.SVRCONN", "10.1.*", MQUSRC_NOACCESS)
        ),
        Err((MQRCCF_CHLAUTH_ALREADY_EXISTS, None))
    );
    let mut replace = address_map("APP.SVRCONN", "10.1.*", MQUSRC_MAP);
    replace.push(string(MQCACH_MCA_USER_ID, "appuser"));
    replace.push(Parameter::integer(MQIACF_ACTION, MQACT_REPLACE));
    set(&processor, replace).unwrap();
    let found = inquire(
        &processor,
        vec![
            string(MQCACH_CHANNEL_NAME, "APP.SVRCONN"),
            Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_ADDRESSMAP),
        ],
    )
    .unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        text(&found[0], MQCACH_CONNECTION_NAME).as_deref(),
        Some("10.1.*")
    );
    assert_eq!(integer(&found[0], MQIACH_USER_SOURCE), Some(MQUSRC_MAP));
    assert_eq!(
        text(&found[0], MQCACH_MCA_USER_ID).as_deref(),
        Some("appuser")
    );
    // MQSC sees what PCF set, with the same values.
    let display = run_command(
        &queue_manager,
        "DISPLAY CHLAUTH(APP.SVRCONN) TYPE(ADDRESSMAP)",
    );
    assert!(display.success, "{}", display.text());
    let shown = display.text();
    assert!(
        shown.contains("ADDRESS(10.1.*)")
            && shown.contains("USERSRC(MAP)")
            && shown.contains("MCAUSER(appuser)"),
        "{shown}"
    );
    let mut remove = address_map("APP.SVRCONN", "10.1.*", MQUSRC_MAP);
    remove.truncate(3);
    remove.push(Parameter::integer(MQIACF_ACTION, MQACT_REMOVE));
    set(&processor, remove.clone()).unwrap();
    assert_eq!(
        set(&processor, remove),
        Err((MQRCCF_CHLAUTH_NOT_FOUND, None))
    );

    // REMOVEALL of a profile's BLOCKUSER records.
    let removeall = vec![
        string(MQCACH_CHANNEL_NAME, "APP.*"),
        Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_BLOCKUSER),
        Parameter::integer(MQIACF_ACTION, MQACT_REMOVEALL),
    ];
    set(&processor, removeall).unwrap();
    assert_eq!(
        inquire(&processor, vec![string(MQCACH_CHANNEL_NAME, "APP.*")]),
        Err((MQRCCF_CHLAUTH_NOT_FOUND, None))
    );
}

#[test]
fn set_faults_name_their_parameter_and_change_nothing() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = CommandProcessor::new(queue_manager.clone());
    let before = queue_manager.channel_authentication_records();
    let with = |mut parameters: Vec<Parameter>, extra: Parameter| {
        parameters.push(extra);
        parameters
    };
    let cases: Vec<(Vec<Parameter>, i32, Option<i32>)> = vec![
        (
            vec![Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_BLOCKUSER)],
            MQRCCF_PARM_MISSING,
            Some(MQCACH_CHANNEL_NAME),
        ),
        (
            vec![string(MQCACH_CHANNEL_NAME, "A.B")],
            MQRCCF_PARM_MISSING,
            Some(MQIACF_CHLAUTH_TYPE),
        ),
        (
            vec![
                string(MQCACH_CHANNEL_NAME, "A.B"),
                Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_SSLPEERMAP),
            ],
            MQRCCF_CHLAUTH_TYPE_ERROR,
            Some(MQIACF_CHLAUTH_TYPE),
        ),
        (
            with(
                block_user("A.B", &["x"]),
                Parameter::integer(MQIACF_ACTION, 99),
            ),
            MQRCCF_CHLAUTH_ACTION_ERROR,
            Some(MQIACF_ACTION),
        ),
        (
            with(
                block_user("A.B", &["x"]),
                string(MQCACH_CONNECTION_NAME, "10.0.0.1"),
            ),
            MQRCCF_WRONG_CHLAUTH_TYPE,
            Some(MQCACH_CONNECTION_NAME),
        ),
        (
            address_map("A.B", "10.0.0.1", 7),
            MQRCCF_CHLAUTH_USERSRC_ERROR,
            Some(MQIACH_USER_SOURCE),
        ),
        (
            with(
                address_map("A.B", "10.0.0.1", MQUSRC_NOACCESS),
                string(MQCACH_MCA_USER_ID, "someone"),
            ),
            MQRCCF_WRONG_CHLAUTH_USERSRC,
            Some(MQCACH_MCA_USER_ID),
        ),
        (
            address_map("A.B", "10.0.0.1", MQUSRC_MAP),
            MQRCCF_PARM_MISSING,
            Some(MQCACH_MCA_USER_ID),
        ),
        (
            address_map("A.B", "10.0.0.999", MQUSRC_CHANNEL),
            MQRCCF_PARM_VALUE_ERROR,
            Some(MQCACH_CONNECTION_NAME),
        ),
        (
            {
                let mut parameters = address_map("A.B", "10.0.0.1", MQUSRC_CHANNEL);
                parameters.remove(2);
                parameters
            },
            MQRCCF_PARM_MISSING,
            Some(MQCACH_CONNECTION_NAME),
        ),
        (
            vec![
                string(MQCACH_CHANNEL_NAME, "A.B"),
                Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_BLOCKADDR),
                list(MQCACH_CONNECTION_NAME_LIST, &["10.0.0.1"]),
            ],
            MQRCCF_CHLAUTH_NAME_ERROR,
            Some(MQCACH_CHANNEL_NAME),
        ),
        (
            block_user("BAD NAME", &["x"]),
            MQRCCF_CHLAUTH_NAME_ERROR,
            Some(MQCACH_CHANNEL_NAME),
        ),
        (
            block_user("A.B", &[]),
            MQRCCF_PARM_VALUE_ERROR,
            Some(MQCACH_MCA_USER_ID_LIST),
        ),
        (
            with(
                block_user("A.B", &["x"]),
                Parameter::integer(MQIACH_WARNING, 5),
            ),
            MQRCCF_CHLAUTH_WARN_ERROR,
            Some(MQIACH_WARNING),
        ),
        (
            vec![
                string(MQCACH_CHANNEL_NAME, "A.B"),
                Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_USERMAP),
                string(MQCACH_CLIENT_USER_ID, "has blank"),
                Parameter::integer(MQIACH_USER_SOURCE, MQUSRC_CHANNEL),
            ],
            MQRCCF_CHLAUTH_CLNTUSER_ERROR,
            Some(MQCACH_CLIENT_USER_ID),
        ),
    ];
    for (parameters, reason, parameter) in cases {
        assert_eq!(
            set(&processor, parameters.clone()),
            Err((reason, parameter)),
            "{parameters:?}"
        );
    }
    assert_eq!(queue_manager.channel_authentication_records(), before);
}

#[test]
fn inquire_selects_by_type_match_runcheck_and_attributes() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = CommandProcessor::new(queue_manager.clone());
    set(&processor, block_user("APP.*", &["mallory"])).unwrap();
    set(&processor, address_map("APP.*", "10.2.*", MQUSRC_CHANNEL)).unwrap();
    set(&processor, address_map("APP.ONE", "*", MQUSRC_NOACCESS)).unwrap();
    let all = inquire(&processor, vec![]).unwrap();
    let count = |records: &[Vec<Parameter>], profile: &str| {
        records
            .iter()
            .filter(|r| text(r, MQCACH_CHANNEL_NAME).as_deref() == Some(profile))
            .count()
    };
    assert_eq!(all.len(), 3, "{all:?}");
    // Type.
    let maps = inquire(
        &processor,
        vec![Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_ADDRESSMAP)],
    )
    .unwrap();
    assert_eq!(maps.len(), 2);
    // GENERIC (the default) compares the name given, as a pattern, with the profiles; EXACT
    // takes it literally; ALL lists the profiles that match a channel name.
    let generic = inquire(&processor, vec![string(MQCACH_CHANNEL_NAME, "APP.O*")]).unwrap();
    assert_eq!((generic.len(), count(&generic, "APP.ONE")), (1, 1));
    let exact = inquire(
        &processor,
        vec![
            string(MQCACH_CHANNEL_NAME, "APP.*"),
            Parameter::integer(MQIACH_MATCH, MQMATCH_EXACT),
        ],
    )
    .unwrap();
    assert_eq!((exact.len(), count(&exact, "APP.*")), (2, 2));
    let applying = inquire(
        &processor,
        vec![
            string(MQCACH_CHANNEL_NAME, "APP.ONE"),
            Parameter::integer(MQIACH_MATCH, MQMATCH_ALL),
        ],
    )
    .unwrap();
    assert_eq!(applying.len(), 3, "{applying:?}");
    // RUNCHECK: the record that decides a connection; BLOCKUSER blocks mallory.
    let runcheck = |address: &str, user: &str| {
        inquire(
            &processor,
            vec![
                string(MQCACH_CHANNEL_NAME, "APP.TWO"),
                Parameter::integer(MQIACH_MATCH, MQMATCH_RUNCHECK),
                string(MQCACH_CONNECTION_NAME, address),
                string(MQCACH_CLIENT_USER_ID, user),
            ],
        )
    };
    let decided = runcheck("10.2.3.4", "alice").unwrap();
    assert_eq!(decided.len(), 1);
    assert_eq!(
        integer(&decided[0], MQIACF_CHLAUTH_TYPE),
        Some(MQCAUT_ADDRESSMAP)
    );
    assert_eq!(
        runcheck("192.168.0.1", "alice"),
        Err((MQRCCF_CHLAUTH_NOT_FOUND, None))
    );
    assert_eq!(
        runcheck("10.2.3.4.5", "alice"),
        Err((MQRCCF_PARM_VALUE_ERROR, Some(MQCACH_CONNECTION_NAME)))
    );
    // RUNCHECK's parameters without RUNCHECK, and RUNCHECK with a generic name.
    assert_eq!(
        inquire(&processor, vec![string(MQCACH_CONNECTION_NAME, "10.2.3.4")]),
        Err((MQRCCF_WRONG_CHLAUTH_MATCH, Some(MQCACH_CONNECTION_NAME)))
    );
    assert_eq!(
        inquire(
            &processor,
            vec![
                string(MQCACH_CHANNEL_NAME, "APP.*"),
                Parameter::integer(MQIACH_MATCH, MQMATCH_RUNCHECK),
                string(MQCACH_CONNECTION_NAME, "10.2.3.4"),
            ]
        ),
        Err((MQRCCF_WRONG_CHLAUTH_MATCH, Some(MQCACH_CHANNEL_NAME)))
    );
    // ChannelAuthAttrs: the name and type always, then what was asked for.
    let selected = inquire(
        &processor,
        vec![
            string(MQCACH_CHANNEL_NAME, "APP.ONE"),
            Parameter::IntegerList {
                parameter: MQIACF_CHLAUTH_ATTRS,
                values: vec![MQIACH_USER_SOURCE],
            },
        ],
    )
    .unwrap();
    let ids: Vec<i32> = selected[0].iter().map(|p| p.id()).collect();
    assert_eq!(
        ids,
        [MQCACH_CHANNEL_NAME, MQIACF_CHLAUTH_TYPE, MQIACH_USER_SOURCE]
    );
    // A filter.
    let filtered = inquire(
        &processor,
        vec![Parameter::IntegerFilter {
            parameter: MQIACH_USER_SOURCE,
            operator: MQCFOP_EQUAL,
            value: MQUSRC_NOACCESS,
        }],
    )
    .unwrap();
    assert_eq!((filtered.len(), count(&filtered, "APP.ONE")), (1, 1));
    assert_eq!(
        inquire(
            &processor,
            vec![Parameter::IntegerFilter {
                parameter: MQIACH_USER_SOURCE,
                operator: MQCFOP_EQUAL,
                value: MQUSRC_MAP,
            }]
        ),
        Err((MQRCCF_NONE_FOUND, None))
    );
    // A type Ferrite does not keep.
    assert_eq!(
        inquire(
            &processor,
            vec![Parameter::integer(MQIACF_CHLAUTH_TYPE, MQCAUT_QMGRMAP)]
        ),
        Err((MQRCCF_CHLAUTH_TYPE_ERROR, Some(MQIACF_CHLAUTH_TYPE)))
    );
}
