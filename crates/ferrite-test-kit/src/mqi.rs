//! MQI calls as the tests make them again and again, over an in-process
//! [`ferrite_mqi::Connection`] or a [`ferrite_client::Connection`] (bindings or client
//! channel): both make the same calls with the same structures.

use std::sync::Arc;

use ferrite_constants::completion::MQCC_FAILED;
use ferrite_constants::format::MQFMT_EVENT;
use ferrite_constants::reason::MQRC_NO_MSG_AVAILABLE;
use ferrite_constants::{get_options::*, open_options::*, persistence::*, put_options::*};
use ferrite_mqi::{Connection, GetResult, Hobj, MqError, MqResult, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::QueueManager;

/// What MQPUT returns: its warning, if any.
pub type PutOutcome = MqResult<Option<MqError>>;

/// MQOPEN, MQCLOSE, MQPUT and MQGET, as both connections make them.
pub trait Mqi {
    fn mqopen(&mut self, od: &mut Mqod, options: i32) -> MqResult<Hobj>;
    fn mqclose(&mut self, hobj: Hobj, options: i32) -> MqResult<()>;
    fn mqput(&mut self, hobj: Hobj, md: &mut Mqmd, pmo: &mut Mqpmo, data: &[u8]) -> PutOutcome;
    fn mqget(&mut self, hobj: Hobj, md: &mut Mqmd, gmo: &mut Mqgmo, buf: &mut [u8]) -> GetOutcome;
}

/// What MQGET returns.
pub type GetOutcome = MqResult<GetResult>;

macro_rules! mqi_calls {
    ($($connection:ty),*) => {$(
        impl Mqi for $connection {
            fn mqopen(&mut self, od: &mut Mqod, options: i32) -> MqResult<Hobj> {
                self.open(od, options)
            }

            fn mqclose(&mut self, hobj: Hobj, options: i32) -> MqResult<()> {
                self.close(hobj, options)
            }

            fn mqput(&mut self, h: Hobj, md: &mut Mqmd, pmo: &mut Mqpmo, d: &[u8]) -> PutOutcome {
                self.put(h, md, pmo, d)
            }

            fn mqget(&mut self, h: Hobj, md: &mut Mqmd, o: &mut Mqgmo, b: &mut [u8]) -> GetOutcome {
                self.get(h, md, o, b)
            }
        }
    )*};
}

mqi_calls!(Connection, ferrite_client::Connection);

/// The buffer [`get`] reads into: larger than any message the tests put with [`put`].
pub const GET_BUFFER: usize = 4096;

/// The reason of a call that must fail (completion code MQCC_FAILED).
pub fn reason<T: std::fmt::Debug>(result: MqResult<T>) -> i32 {
    let error = result.expect_err("the call should fail");
    assert_eq!(error.completion_code, MQCC_FAILED, "{error}");
    error.reason
}

/// A connection to `queue_manager` (MQCONN with the default queue manager name).
pub fn connect(queue_manager: &Arc<QueueManager>) -> Connection {
    Connection::connect(queue_manager.clone(), "").unwrap()
}

/// A descriptor with MQ's defaults but `persistence`.
pub fn with_persistence(persistence: i32) -> Mqmd {
    Mqmd {
        persistence,
        ..Mqmd::default()
    }
}

/// MQPER_PERSISTENT or MQPER_NOT_PERSISTENT.
pub fn persistence(persistent: bool) -> i32 {
    if persistent {
        MQPER_PERSISTENT
    } else {
        MQPER_NOT_PERSISTENT
    }
}

/// MQPUT of `data` with descriptor `md` and put options `options`: its warning, if any.
pub fn put_md(
    connection: &mut impl Mqi,
    hobj: Hobj,
    md: &mut Mqmd,
    options: i32,
    data: &[u8],
) -> PutOutcome {
    connection.mqput(hobj, md, &mut Mqpmo::with_options(options), data)
}

/// MQPUT of `data` with a default descriptor and put options `options`, which must succeed:
/// the descriptor as the put completed it.
pub fn put(connection: &mut impl Mqi, hobj: Hobj, options: i32, data: &[u8]) -> Mqmd {
    let mut md = Mqmd::default();
    put_md(connection, hobj, &mut md, options, data).unwrap();
    md
}

/// Open `queue` for output, put `data` there with descriptor `md` and put options `options`,
/// and close it again; each call must succeed.
pub fn put_to_queue(
    connection: &mut impl Mqi,
    queue: &str,
    md: &mut Mqmd,
    options: i32,
    data: &[u8],
) {
    let hobj = connection
        .mqopen(&mut Mqod::queue(queue), MQOO_OUTPUT)
        .unwrap();
    put_md(connection, hobj, md, options, data).unwrap();
    connection.mqclose(hobj, 0).unwrap();
}

/// MQGET with `gmo` into a buffer of `buffer_size` bytes: the descriptor and the data returned.
pub fn get_with(
    connection: &mut impl Mqi,
    hobj: Hobj,
    gmo: &mut Mqgmo,
    buffer_size: usize,
) -> MqResult<(Mqmd, Vec<u8>)> {
    let mut md = Mqmd::default();
    let mut buffer = vec![0u8; buffer_size];
    let result = connection.mqget(hobj, &mut md, gmo, &mut buffer)?;
    buffer.truncate(result.returned_length);
    Ok((md, buffer))
}

/// MQGET with get options `options` into a buffer of `buffer_size` bytes.
pub fn get_sized(
    connection: &mut impl Mqi,
    hobj: Hobj,
    options: i32,
    buffer_size: usize,
) -> MqResult<(Mqmd, Vec<u8>)> {
    get_with(
        connection,
        hobj,
        &mut Mqgmo::with_options(options),
        buffer_size,
    )
}

/// MQGET with get options `options` into a buffer of [`GET_BUFFER`] bytes.
pub fn get(connection: &mut impl Mqi, hobj: Hobj, options: i32) -> MqResult<(Mqmd, Vec<u8>)> {
    get_sized(connection, hobj, options, GET_BUFFER)
}

/// Take every message off `hobj` outside syncpoint, each into a buffer of `buffer_size` bytes,
/// until MQRC_NO_MSG_AVAILABLE: their descriptors and data. Any other failure panics, naming
/// `queue`, what the messages are taken from.
pub fn get_until_empty(
    connection: &mut impl Mqi,
    hobj: Hobj,
    buffer_size: usize,
    queue: &str,
) -> Vec<(Mqmd, Vec<u8>)> {
    let mut taken = Vec::new();
    loop {
        match get_sized(connection, hobj, MQGMO_NO_SYNCPOINT, buffer_size) {
            Ok(message) => taken.push(message),
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => return taken,
            Err(error) => panic!("MQGET from {queue}: {error}"),
        }
    }
}

/// Take every message off the queue `queue` of `queue_manager` (opened for this call, each
/// into a buffer of `buffer_size` bytes): their descriptors and data, as
/// [`get_until_empty`].
pub fn take_all(
    queue_manager: &Arc<QueueManager>,
    queue: &str,
    buffer_size: usize,
) -> Vec<(Mqmd, Vec<u8>)> {
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_INPUT_SHARED)
        .unwrap();
    let taken = get_until_empty(&mut connection, hobj, buffer_size, queue);
    connection.close(hobj, 0).unwrap();
    taken
}

/// Take every performance event off `hobj` (SYSTEM.ADMIN.PERFM.EVENT, open for input): each
/// must be an event message (MQFMT_EVENT) of 236 bytes, an MQCFH and a queue's parameters.
pub fn performance_events(connection: &mut impl Mqi, hobj: Hobj) -> Vec<Vec<u8>> {
    get_until_empty(connection, hobj, 1024, "the event queue")
        .into_iter()
        .map(|(md, data)| {
            assert_eq!(md.format, MQFMT_EVENT);
            assert_eq!(data.len(), 236);
            data
        })
        .collect()
}

/// Put `count` messages ("message N") to `queue` on a connection of its own, outside syncpoint.
pub fn put_messages(
    queue_manager: &Arc<QueueManager>,
    queue: &str,
    count: usize,
    persistent: bool,
) {
    put_messages_with(queue_manager, queue, count, persistent, |index| {
        format!("message {index}").into_bytes()
    });
}

/// Put `count` messages, message N's data `data(N)`, to `queue` on a connection of its own,
/// outside syncpoint.
pub fn put_messages_with(
    queue_manager: &Arc<QueueManager>,
    queue: &str,
    count: usize,
    persistent: bool,
    data: impl Fn(usize) -> Vec<u8>,
) {
    let mut connection = connect(queue_manager);
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_OUTPUT)
        .unwrap();
    for index in 0..count {
        put_md(
            &mut connection,
            hobj,
            &mut with_persistence(persistence(persistent)),
            MQPMO_NO_SYNCPOINT,
            &data(index),
        )
        .unwrap();
    }
    connection.disconnect().unwrap();
}

/// Get `count` messages from `queue` on a connection of its own, outside syncpoint.
pub fn get_messages(queue_manager: &Arc<QueueManager>, queue: &str, count: usize) {
    let mut connection = connect(queue_manager);
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_INPUT_SHARED)
        .unwrap();
    for _ in 0..count {
        get_sized(&mut connection, hobj, MQGMO_NO_SYNCPOINT, 1024).unwrap();
    }
    connection.disconnect().unwrap();
}
