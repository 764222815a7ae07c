//! `sticky` and `cooperative-sticky` (placeholder while the port lands).

use crate::error::AssignError;
use crate::prepared::{MemberIdx, PartitionIdx, Prepared};
use crate::trace::Tracer;

/// What a sticky-family run returns, in dense ids.
pub(crate) struct StickyOutcome {
    /// Each member's list, by `MemberIdx`, in Kafka's order.
    pub lists: Vec<Vec<PartitionIdx>>,
    /// `partitionsTransferringOwnership`; `None` on the general path.
    pub transferring: Option<Vec<(PartitionIdx, MemberIdx)>>,
    /// Cooperative only: partitions withheld this round, with the member they are meant for.
    pub withheld: Vec<(PartitionIdx, MemberIdx)>,
}

pub(crate) fn assign<T: Tracer>(
    g: &Prepared,
    hash_order: &[MemberIdx],
    cooperative: bool,
    trace: &mut T,
) -> Result<StickyOutcome, AssignError> {
    let _ = (g, hash_order, cooperative, trace);
    Err(AssignError::KafkaThrows("sticky not ported yet".into()))
}
