//! A running message channel's indicators in DISPLAY CHSTATUS: COMPHDR and COMPMSG (the
//! technique negotiated and the one the last message used), COMPRATE and COMPTIME, and a
//! sender's XQTIME and NETTIME. Each of the last four is a pair, as MQ shows it: a short-term
//! value following the last few measurements and a long-term one following many (moving
//! averages with weights 1/4 and 1/32, as QTIME's). They live in atomics beside the MCA's
//! other counters: the MCA's thread records, DISPLAY CHSTATUS reads.
//!
//! - COMPRATE: per compressed message, the percentage by which compression reduced its bytes
//!   on the wire (0 when nothing was saved).
//! - COMPTIME: per compressed message, microseconds spent compressing (sender) or
//!   decompressing (receiver) it.
//! - XQTIME: per message sent, the microseconds from its put on the transmission queue (the
//!   PutDate and PutTime of its descriptor there, to the hundredth of a second) to its get.
//! - NETTIME: per batch, the microseconds from the end of the batch's last message on the
//!   socket to the partner's confirmation, which covers the network both ways and the
//!   partner's commit (MQ: "the time to send a request to the remote end of the channel and
//!   receive a response"; MQ measures the same round trip of the end-of-batch confirm).

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use ferrite_command::MessageChannelIndicators;
use ferrite_protocol::compression::{Compression, SegmentCompression};

/// An indicator's "nothing measured yet".
const NONE: u64 = u64::MAX;
/// The weights of the short-term and long-term averages.
const SHORT_TERM_WEIGHT: u64 = 4;
const LONG_TERM_WEIGHT: u64 = 32;

/// One short-term and long-term pair.
#[derive(Debug)]
pub struct Indicator {
    short: AtomicU64,
    long: AtomicU64,
}

impl Default for Indicator {
    fn default() -> Indicator {
        Indicator {
            short: AtomicU64::new(NONE),
            long: AtomicU64::new(NONE),
        }
    }
}

impl Indicator {
    /// Adds a measurement (one writer: the MCA's thread).
    pub fn record(&self, value: u64) {
        let value = value.min(NONE - 1);
        let blend = |average: &AtomicU64, weight: u64| {
            let blended = match average.load(Ordering::Relaxed) {
                NONE => value,
                average => {
                    ((u128::from(average) * u128::from(weight - 1) + u128::from(value))
                        / u128::from(weight)) as u64
                }
            };
            average.store(blended, Ordering::Relaxed);
        };
        blend(&self.short, SHORT_TERM_WEIGHT);
        blend(&self.long, LONG_TERM_WEIGHT);
    }

    /// The pair, `None` before the first measurement.
    pub fn pair(&self) -> Option<(u64, u64)> {
        let (short, long) = (
            self.short.load(Ordering::Relaxed),
            self.long.load(Ordering::Relaxed),
        );
        (short != NONE && long != NONE).then_some((short, long))
    }
}

/// Every indicator of one channel instance.
#[derive(Debug)]
pub struct ChannelIndicators {
    header_compression: [AtomicI32; 2],
    message_compression: [AtomicI32; 2],
    pub compression_rate: Indicator,
    pub compression_time_us: Indicator,
    pub transmission_queue_time_us: Indicator,
    pub network_time_us: Indicator,
}

impl Default for ChannelIndicators {
    fn default() -> ChannelIndicators {
        ChannelIndicators {
            header_compression: [AtomicI32::new(0), AtomicI32::new(0)],
            message_compression: [AtomicI32::new(0), AtomicI32::new(0)],
            compression_rate: Indicator::default(),
            compression_time_us: Indicator::default(),
            transmission_queue_time_us: Indicator::default(),
            network_time_us: Indicator::default(),
        }
    }
}

impl ChannelIndicators {
    /// The techniques negotiated for a new session.
    pub fn negotiated(&self, compression: SegmentCompression) {
        self.header_compression[0].store(compression.header.mqcompress(), Ordering::Relaxed);
        self.message_compression[0].store(compression.message.mqcompress(), Ordering::Relaxed);
    }

    /// A message moved with `used` (the techniques its segments used): `raw` bytes, `wire`
    /// bytes on the wire, `nanoseconds` spent (de)compressing. COMPRATE and COMPTIME count
    /// only messages on a channel that compresses.
    pub fn message_moved(&self, used: SegmentCompression, raw: u64, wire: u64, nanoseconds: u64) {
        self.header_compression[1].store(used.header.mqcompress(), Ordering::Relaxed);
        self.message_compression[1].store(used.message.mqcompress(), Ordering::Relaxed);
        if self.header_compression[0].load(Ordering::Relaxed) == Compression::None.mqcompress()
            && self.message_compression[0].load(Ordering::Relaxed) == Compression::None.mqcompress()
        {
            return;
        }
        let saved = raw.saturating_sub(wire);
        self.compression_rate
            .record((saved * 100).checked_div(raw).unwrap_or(0));
        self.compression_time_us.record(nanoseconds / 1000);
    }

    /// The values DISPLAY CHSTATUS shows.
    pub fn values(&self) -> MessageChannelIndicators {
        let pair = |atomics: &[AtomicI32; 2]| {
            [
                atomics[0].load(Ordering::Relaxed),
                atomics[1].load(Ordering::Relaxed),
            ]
        };
        MessageChannelIndicators {
            header_compression: pair(&self.header_compression),
            message_compression: pair(&self.message_compression),
            compression_rate: self.compression_rate.pair(),
            compression_time_us: self.compression_time_us.pair(),
            transmission_queue_time_us: self.transmission_queue_time_us.pair(),
            network_time_us: self.network_time_us.pair(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_term_follows_faster_than_long_term() {
        let indicator = Indicator::default();
        assert_eq!(indicator.pair(), None);
        indicator.record(1000);
        assert_eq!(indicator.pair(), Some((1000, 1000)));
        for _ in 0..8 {
            indicator.record(0);
        }
        let (short, long) = indicator.pair().unwrap();
        assert!(short < 200, "short-term {short}");
        assert!(long > 700, "long-term {long}");
    }

    #[test]
    fn compression_rate_is_the_share_saved() {
        let indicators = ChannelIndicators::default();
        let rle = SegmentCompression {
            header: Compression::None,
            message: Compression::Rle,
        };
        indicators.message_moved(rle, 1000, 250, 5000);
        assert_eq!(indicators.values().compression_rate, None, "not negotiated");
        indicators.negotiated(rle);
        indicators.message_moved(rle, 1000, 250, 5000);
        let values = indicators.values();
        assert_eq!(values.compression_rate, Some((75, 75)));
        assert_eq!(values.compression_time_us, Some((5, 5)));
        assert_eq!(values.message_compression, [1, 1]);
        indicators.message_moved(SegmentCompression::NONE, 1000, 1000, 0);
        assert_eq!(indicators.values().message_compression, [1, 0]);
    }
}
