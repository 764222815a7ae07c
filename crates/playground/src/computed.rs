//! What the page shows that follows from the scenario: `scenario::report`'s [`Report`], computed
//! once per edit and never edited, and how much of it the page lays out.

pub use scenario::report::Report as Computed;

/// Above this many partitions in all, rows summarise partitions as ranges instead of chips.
pub const CHIP_LIMIT: usize = 5_000;

/// Whether rows summarise their partitions as ranges.
pub fn summarised(computed: &Computed) -> bool {
    computed.total_partitions > CHIP_LIMIT
}
