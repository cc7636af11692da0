//! Ranges of message identifiers reserved for a client that generates them (SPI RESERVE).

use std::collections::HashSet;

use ferrite_mqi::reserve_identifiers;

#[test]
fn reserved_ranges_are_aligned_and_never_reissued() {
    let (first, counter_bytes) = reserve_identifiers("QM1", 0x00ff_ffff);
    assert_eq!(counter_bytes, 3);
    assert_eq!(&first[..8], b"CSQ QM1 ");
    assert_eq!(first[21..], [0, 0, 0], "the counter starts at 0");
    assert_eq!(reserve_identifiers("QM1", 256).1, 1);
    assert_eq!(reserve_identifiers("QM1", 257).1, 2);
    assert_eq!(reserve_identifiers("QM1", 1).1, 1);
    // Identifiers issued afterwards (by a put, or another reservation) are outside the range.
    let range_prefix = &first[..21];
    let (second, _) = reserve_identifiers("QM1", 0x00ff_ffff);
    assert_ne!(&second[..21], range_prefix);
    let mut seen = HashSet::new();
    for _ in 0..1000 {
        let (id, bytes) = reserve_identifiers("QM1", 1);
        assert_eq!(bytes, 1);
        assert_ne!(&id[..21], range_prefix);
        assert!(seen.insert(id), "unique");
    }
}
