//! ALTER QLOCAL changes only the attributes it names, applied to the definition current under
//! the object lock: a switch the queue manager makes at the same moment (an event or trigger
//! control, `QueueManager::update_queue_definition`) is never undone by an ALTER that read the
//! definition before it.

use ferrite_command::run_command;

#[test]
fn alter_qlocal_never_undoes_a_concurrent_switch() {
    const ROUNDS: u32 = 300;
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let response = run_command(
        &queue_manager,
        "DEFINE QLOCAL(SWITCHED.Q) TRIGGER DESCR('0')",
    );
    assert!(response.success, "{}", response.text());
    let queue = queue_manager.queue("SWITCHED.Q").unwrap();
    std::thread::scope(|scope| {
        // The operator: ALTER of DESCR only, over and over.
        scope.spawn(|| {
            for round in 1..=ROUNDS {
                let command = format!("ALTER QLOCAL(SWITCHED.Q) DESCR('{round}')");
                let response = run_command(&queue_manager, &command);
                assert!(response.success, "{command}: {}", response.text());
            }
        });
        // The queue manager: TRIGGER flipped an even number of times.
        scope.spawn(|| {
            for _ in 0..ROUNDS {
                queue_manager
                    .update_queue_definition(&queue, |definition| {
                        definition.trigger_control = !definition.trigger_control;
                        Ok(true)
                    })
                    .unwrap();
            }
        });
    });
    let definition = queue.definition();
    assert!(
        definition.trigger_control,
        "an ALTER of DESCR undid a TRIGGER switch"
    );
    assert_eq!(definition.description, ROUNDS.to_string());
    queue_manager.shutdown().unwrap();
}
