//! Rebalance diffs (placeholder).
