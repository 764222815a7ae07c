//! The playground's scenarios: the external formats (versioned serde DTOs), their validation with
//! messages a person can act on, the rebalance events, the presets, and the bridge to the
//! assignor core.
//!
//! ```
//! use scenario::{presets, Model};
//!
//! let scenario = presets::all()[0].scenario().unwrap();
//! let model = Model::new(&scenario).unwrap();
//! let range = model.rebalance(assignor::Strategy::Range).unwrap();
//! assert_eq!(range.result()["C1"].len(), 5); // range's 5 + 3 imbalance
//! ```

pub mod advice;
pub mod events;
pub mod format;
pub mod link;
pub mod model;
pub mod presets;
pub mod validate;

pub use format::{ConsumerSpec, Previous, Scenario, Snapshot, SnapshotMember, TopicSpec, View, VERSION};
pub use model::Model;
pub use validate::{Location, Problem, Severity};

/// Reads a scenario file: checks the version first, so a file from a newer release gets a clear
/// message instead of a field-by-field complaint.
pub fn parse_scenario(text: &str) -> Result<Scenario, String> {
    #[derive(serde::Deserialize)]
    struct Versioned {
        #[serde(default)]
        version: Option<u64>,
    }
    let versioned: Versioned = serde_json::from_str(text).map_err(|e| format!("not a scenario: {e}"))?;
    if let Some(v) = versioned.version.filter(|&v| v > u64::from(VERSION)) {
        return Err(format!(
            "this scenario was written by a newer version (format {v}); this one reads up to {VERSION}"
        ));
    }
    serde_json::from_str(text).map_err(|e| format!("not a scenario: {e}"))
}

/// A scenario as the JSON file the playground exports and the CLI reads.
pub fn to_json(scenario: &Scenario) -> String {
    serde_json::to_string_pretty(scenario).unwrap_or_default()
}
