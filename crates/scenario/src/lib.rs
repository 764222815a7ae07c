//! Scenario formats (placeholder).
