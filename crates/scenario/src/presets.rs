//! Ready-made scenarios: every worked example of the two seed articles, and the rebalance triggers
//! they describe. Each is a data file in `presets/`: a starting group and the events that follow it.

use serde::Deserialize;

use crate::edit::EditError;
use crate::events::{settle, Event};
use crate::format::Scenario;
use crate::validate;

/// A preset as stored.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// The file's name without `.json`; stable, used in links.
    #[serde(skip)]
    pub id: &'static str,
    /// The headline, as the menu shows it.
    pub title: String,
    /// What it shows, and where the seed articles explain it.
    pub notes: String,
    scenario: Scenario,
    /// Events after the first assignment; the last one is the rebalance the page opens on.
    #[serde(default)]
    pub then: Vec<Event>,
}

/// Presets in menu order; the first is what the page opens on.
const FILES: [(&str, &str); 13] = [
    ("range-imbalance", include_str!("../presets/range-imbalance.json")),
    ("roundrobin-uneven", include_str!("../presets/roundrobin-uneven.json")),
    ("range-two-topics", include_str!("../presets/range-two-topics.json")),
    ("sticky-crash-c3", include_str!("../presets/sticky-crash-c3.json")),
    ("sticky-crash-c1", include_str!("../presets/sticky-crash-c1.json")),
    ("pattern-new-topic", include_str!("../presets/pattern-new-topic.json")),
    ("add-partitions", include_str!("../presets/add-partitions.json")),
    ("cooperative-upgrade", include_str!("../presets/cooperative-upgrade.json")),
    ("rack-aware", include_str!("../presets/rack-aware.json")),
    ("static-members", include_str!("../presets/static-members.json")),
    ("consumer-protocol-uniform", include_str!("../presets/consumer-protocol-uniform.json")),
    ("uniform-heterogeneous", include_str!("../presets/uniform-heterogeneous.json")),
    ("consumer-rolling-restart", include_str!("../presets/consumer-rolling-restart.json")),
];

/// Every preset. The files are part of the build and tested, so none fails to parse.
pub fn all() -> Vec<Preset> {
    FILES
        .iter()
        .filter_map(|(id, text)| {
            let mut preset: Preset = serde_json::from_str(text).ok()?;
            preset.id = id;
            Some(preset)
        })
        .collect()
}

/// The preset with this id.
pub fn find(id: &str) -> Option<Preset> {
    all().into_iter().find(|p| p.id == id)
}

impl Preset {
    /// The scenario the preset opens on: its group assigned fresh, then each event applied, every
    /// event but the last rebalanced, so the page shows the last event's rebalance.
    pub fn scenario(&self) -> Result<Scenario, EditError> {
        let mut scenario = validate::checked(Scenario {
            title: self.title.clone(),
            notes: self.notes.clone(),
            ..self.scenario.clone()
        })?;
        for event in &self.then {
            scenario = event.apply(&settle(&scenario))?;
        }
        Ok(scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_file_parses_and_loads() {
        assert_eq!(all().len(), FILES.len());
        for preset in all() {
            let scenario = preset.scenario().unwrap_or_else(|e| panic!("{}: {e}", preset.id));
            assert!(crate::validate::errors(&scenario).is_empty(), "{}", preset.id);
        }
    }
}
