//! Reading FILE arguments: a scenario file (what the playground exports) or one group snapshot in
//! the `batch` format, which opens as a fresh scenario.

use std::io::Read;
use std::path::Path;

use scenario::{Scenario, Snapshot};

pub fn read(path: &Path) -> Result<Scenario, String> {
    let mut text = String::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("reading stdin: {e}"))?;
    } else {
        text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse(text: &str) -> Result<Scenario, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("strategy").is_some() && value.get("members").is_some() {
        let snapshot: Snapshot = serde_json::from_value(value).map_err(|e| format!("not a group snapshot: {e}"))?;
        snapshot.to_group()?;
        Ok(snapshot.to_scenario())
    } else {
        scenario::parse_scenario(text)
    }
}
