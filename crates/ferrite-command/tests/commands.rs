//! Commands checked against the queue manager's state (the golden scripts check the output).

use ferrite_command::run_command;

#[test]
fn a_failing_command_changes_nothing() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    assert!(
        run_command(
            &queue_manager,
            "DEFINE QLOCAL(Q) MAXDEPTH(100) DESCR('before')"
        )
        .success
    );
    let before = queue_manager.queue("Q").unwrap().definition();
    for command in [
        "ALTER QLOCAL(Q) MAXDEPTH(5) DESCR('after') DEFPRTY(10)",
        "ALTER QLOCAL(Q) MAXDEPTH(5) DESCR('after') NOSUCH(1)",
        "ALTER QLOCAL(Q) MAXDEPTH(5) STGCLASS(NOSUCH)",
        "ALTER QLOCAL(Q) MAXDEPTH(5) MAXDEPTH(6)",
        "DEFINE QLOCAL(Q) REPLACE MAXDEPTH(5) INDXTYPE(BOGUS)",
        "DEFINE QLOCAL(Q) MAXDEPTH(5)",
        "DEFINE QLOCAL(Q) REPLACE LIKE(NO.SUCH) MAXDEPTH(5)",
    ] {
        let response = run_command(&queue_manager, command);
        assert!(!response.success, "{command}");
        assert!(
            response
                .lines
                .last()
                .unwrap()
                .contains("ABNORMAL COMPLETION"),
            "{command}: {response:?}"
        );
        assert_eq!(
            queue_manager.queue("Q").unwrap().definition(),
            before,
            "{command}"
        );
    }
    for command in [
        "DEFINE QLOCAL(NEW) MAXDEPTH(5) DEFPSIST(MAYBE)",
        "DEFINE QLOCAL(NEW) LIKE(NO.SUCH)",
        "DEFINE QLOCAL(NEW) DESCR('unbalanced",
    ] {
        assert!(!run_command(&queue_manager, command).success, "{command}");
        assert!(queue_manager.queue("NEW").is_none(), "{command}");
    }
    // And the definitions survive a restart as they were.
    queue_manager.shutdown().unwrap();
}

#[test]
fn like_copies_the_source_and_replace_starts_again() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let run = |command: &str| assert!(run_command(&queue_manager, command).success, "{command}");
    run("DEFINE QLOCAL(MODEL.SOURCE) STGCLASS(REMOTE) MAXDEPTH(77) DEFPRTY(4) INDXTYPE(MSGID) GET(DISABLED)");
    run("DEFINE QLOCAL(COPY) LIKE(MODEL.SOURCE) DESCR('copy')");
    let source = queue_manager.queue("MODEL.SOURCE").unwrap().definition();
    let copy = queue_manager.queue("COPY").unwrap().definition();
    assert_eq!(copy.name, "COPY");
    assert_eq!(copy.description, "copy");
    assert_eq!(copy.page_set.0, 3);
    assert_eq!(
        (
            copy.max_depth,
            copy.default_priority,
            copy.index_type.as_str(),
            copy.get_inhibited
        ),
        (77, 4, "MSGID", true)
    );
    assert_eq!(source.description, "");
    run("DEFINE QLOCAL(COPY) REPLACE");
    let replaced = queue_manager.queue("COPY").unwrap().definition();
    assert_eq!((replaced.max_depth, replaced.page_set.0), (999_999_999, 1));
    queue_manager.shutdown().unwrap();
}

#[test]
fn reports_continuations_and_program_form() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let response = run_command(
        &queue_manager,
        "* a comment\nDEFINE QLOCAL(A) +\n   DESCR('continued') -\n MAXDEPTH(3)",
    );
    assert!(response.success, "{response:?}");
    let definition = queue_manager.queue("A").unwrap().definition();
    assert_eq!(
        (definition.description.as_str(), definition.max_depth),
        ("continued", 3)
    );

    let response = run_command(&queue_manager, "DISPLAY QLOCAL(A) DESCR");
    assert_eq!(
        response.lines,
        [
            "CSQM401I QM1 QUEUE(A)",
            " TYPE(QLOCAL)",
            " QSGDISP(QMGR)",
            " DESCR(continued)",
            "CSQ9022I QM1 CSQMDRTS ' DISPLAY QLOCAL' NORMAL COMPLETION",
        ]
    );
    assert_eq!(
        response.messages[0],
        "CSQM401I QM1 QUEUE(A) TYPE(QLOCAL) QSGDISP(QMGR) DESCR(continued)"
    );

    let response = run_command(&queue_manager, "DEFINE QLOCAL(B)\nDEFINE QLOCAL(C)");
    assert!(!response.success);
    assert!(queue_manager.queue("B").is_none());

    assert!(run_command(&queue_manager, "  \n* only a comment\n").success);

    for (command, id) in [
        ("DISPLAY USAGE", "CSQI010I"),
        ("DIS USAGE PSID(*)", "CSQI010I"),
        ("DISPLAY LOG", "CSQJ322I"),
        ("ARCHIVE LOG", "CSQJ311I"),
        ("ARC LOG", "CSQJ311I"),
    ] {
        let response = run_command(&queue_manager, command);
        assert!(response.success, "{command}: {response:?}");
        assert!(response.lines[0].starts_with(id), "{command}: {response:?}");
        assert!(response.lines.last().unwrap().starts_with("CSQ9022I"));
    }
    // A report is one message for a program.
    let response = run_command(&queue_manager, "DISPLAY USAGE");
    assert!(response.messages[0].starts_with("CSQI010I") && response.messages[0].contains('\n'));
    queue_manager.shutdown().unwrap();
}

#[test]
fn message_age_and_last_put_time() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    assert!(run_command(&queue_manager, "DEFINE QLOCAL(AGED)").success);
    ferrite_test_kit::put_messages(&queue_manager, "AGED", 2, true);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let response = run_command(
        &queue_manager,
        "DISPLAY QSTATUS(AGED) MSGAGE LPUTDATE LPUTTIME",
    );
    let text = response.text();
    let age: u64 = text
        .split("MSGAGE(")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..60).contains(&age), "{text}");
    assert!(!text.contains("LPUTDATE( )"), "{text}");
    ferrite_test_kit::get_messages(&queue_manager, "AGED", 1);
    let text = run_command(&queue_manager, "DISPLAY QSTATUS(AGED) QTIME").text();
    let qtime = text.split("QTIME(").nth(1).unwrap();
    let short: u64 = qtime.split(',').next().unwrap().trim().parse().unwrap();
    assert!(short >= 1_000_000, "waited over a second: {text}");
    queue_manager.shutdown().unwrap();
}
