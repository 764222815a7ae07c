//! Which strategy and rebalance protocol a group uses (placeholder).

/// `RebalanceProtocol`: EAGER (id 0) or COOPERATIVE (id 1), KIP-429.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RebalanceProtocol {
    Eager,
    Cooperative,
}
