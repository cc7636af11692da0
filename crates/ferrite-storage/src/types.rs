//! Small value types shared by every part of the storage engine, named as MQ names them.

use std::fmt;

/// Relative byte address: the byte position of a record in the logical recovery log stream.
/// 64-bit, as the 8-byte RBA of IBM MQ 9.3 and later; it never wraps in practice.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rba(pub u64);

impl Rba {
    pub const ZERO: Rba = Rba(0);
    pub fn offset(self, bytes: u64) -> Rba {
        Rba(self.0.checked_add(bytes).expect("log RBA overflow"))
    }
}

impl fmt::Display for Rba {
    /// Printed as MQ prints an 8-byte RBA: 16 upper-case hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016X}", self.0)
    }
}

/// Page set number, 00–99.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PageSetId(pub u8);

impl PageSetId {
    pub const MAX: u8 = 99;
    pub fn new(id: u8) -> Option<PageSetId> {
        (id <= Self::MAX).then_some(PageSetId(id))
    }
}

impl fmt::Display for PageSetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}", self.0)
    }
}

/// Buffer pool number, 0–99.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BufferPoolId(pub u8);

impl BufferPoolId {
    pub const MAX: u8 = 99;
    pub fn new(id: u8) -> Option<BufferPoolId> {
        (id <= Self::MAX).then_some(BufferPoolId(id))
    }
}

impl fmt::Display for BufferPoolId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Page number within a page set. Page 0 is the header page.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PageNumber(pub u32);

impl fmt::Display for PageNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Unit of recovery identifier. By MQ convention it is the RBA of the UR's begin record,
/// so it orders URs by age and says where backward recovery must read back to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Urid(pub Rba);

impl fmt::Display for Urid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
