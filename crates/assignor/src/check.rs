//! The validator (placeholder).
