//! Which assignor a panel, a walkthrough or an explanation is of: one of the four classic
//! client-side strategies, or one of the consumer protocol's server-side assignors (KIP-848), by
//! the one name each goes by everywhere — a panel's [`PanelDigest::panel`](crate::digest::PanelDigest),
//! the key of its previous assignment in a scenario, `kap explain --strategy` and `kap config
//! --strategy`: `range`, `roundrobin`, `sticky`, `cooperative-sticky`, `uniform`, `consumer-range`.
//!
//! ```
//! use assignor::consumer_group::ServerAssignor;
//! use assignor::Strategy;
//! use scenario::StrategyId;
//!
//! assert_eq!("consumer-range".parse(), Ok(StrategyId::Server(ServerAssignor::Range)));
//! assert_eq!("range".parse(), Ok(StrategyId::Classic(Strategy::Range)));
//! assert_eq!(StrategyId::from(ServerAssignor::Uniform).name(), "uniform");
//! ```

use std::fmt;
use std::str::FromStr;

use assignor::consumer_group::ServerAssignor;
use assignor::Strategy;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::format::previous_key;

/// A classic strategy or a server-side assignor, named as its panel is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StrategyId {
    /// A client-side strategy of the classic protocol (`partition.assignment.strategy`).
    Classic(Strategy),
    /// A server-side assignor of the consumer protocol (`group.remote.assignor`).
    Server(ServerAssignor),
}

impl StrategyId {
    /// Every one: the classic strategies in [`Strategy::ALL`] order, then the server-side assignors
    /// in [`ServerAssignor::ALL`] order.
    pub const ALL: [StrategyId; 6] = [
        StrategyId::Classic(Strategy::Range),
        StrategyId::Classic(Strategy::RoundRobin),
        StrategyId::Classic(Strategy::Sticky),
        StrategyId::Classic(Strategy::CooperativeSticky),
        StrategyId::Server(ServerAssignor::Uniform),
        StrategyId::Server(ServerAssignor::Range),
    ];

    /// Its name: a classic strategy's protocol name, or a server-side assignor's key beside them
    /// ([`previous_key`]: `uniform`, `consumer-range`, since `range` is the classic one's).
    pub fn name(self) -> &'static str {
        match self {
            StrategyId::Classic(strategy) => strategy.name(),
            StrategyId::Server(assignor) => previous_key(assignor),
        }
    }
}

impl From<Strategy> for StrategyId {
    fn from(strategy: Strategy) -> Self {
        StrategyId::Classic(strategy)
    }
}

impl From<ServerAssignor> for StrategyId {
    fn from(assignor: ServerAssignor) -> Self {
        StrategyId::Server(assignor)
    }
}

impl fmt::Display for StrategyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is neither a classic strategy nor a server-side assignor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownStrategy(pub String);

impl fmt::Display for UnknownStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown strategy {:?} (range, roundrobin, sticky, cooperative-sticky; uniform or consumer-range for the \
             consumer protocol)",
            self.0
        )
    }
}

impl std::error::Error for UnknownStrategy {}

impl FromStr for StrategyId {
    type Err = UnknownStrategy;

    /// [`StrategyId::name`], a classic strategy's Java class name (as [`Strategy`] reads it), or
    /// `consumer:range`, `consumer-uniform`, `consumer:uniform` as `kap config` reads them.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "consumer-uniform" | "consumer:uniform" => Ok(StrategyId::Server(ServerAssignor::Uniform)),
            "consumer:range" => Ok(StrategyId::Server(ServerAssignor::Range)),
            _ => StrategyId::ALL
                .into_iter()
                .find(|id| id.name() == s)
                .or_else(|| s.parse().ok().map(StrategyId::Classic))
                .ok_or_else(|| UnknownStrategy(s.to_string())),
        }
    }
}

/// As its name, so it crosses to the compute worker (and into JSON) as the panels name it.
impl Serialize for StrategyId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for StrategyId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<str>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_as_itself() {
        for id in StrategyId::ALL {
            assert_eq!(id.name().parse(), Ok(id));
            assert_eq!(serde_json::from_str::<StrategyId>(&serde_json::to_string(&id).unwrap()).unwrap(), id);
        }
        let names: Vec<&str> = StrategyId::ALL.iter().map(|id| id.name()).collect();
        assert_eq!(names, ["range", "roundrobin", "sticky", "cooperative-sticky", "uniform", "consumer-range"]);
    }

    #[test]
    fn class_names_and_kap_configs_spellings_are_read_too() {
        assert_eq!("StickyAssignor".parse(), Ok(StrategyId::Classic(Strategy::Sticky)));
        assert_eq!("consumer:range".parse(), Ok(StrategyId::Server(ServerAssignor::Range)));
        assert_eq!("consumer-uniform".parse(), Ok(StrategyId::Server(ServerAssignor::Uniform)));
        assert_eq!("nope".parse::<StrategyId>(), Err(UnknownStrategy("nope".into())));
        assert!(serde_json::from_str::<StrategyId>("\"nope\"").is_err());
    }

    #[test]
    fn a_panels_name_is_its_strategy_id() {
        let scenario = crate::presets::find("consumer-protocol-uniform").and_then(|p| p.scenario().ok()).unwrap();
        let report = crate::report::Report::new(&scenario);
        for server in &report.servers {
            let digest = server.digest(&report, &scenario);
            assert_eq!(digest.panel, StrategyId::Server(server.assignor));
        }
        for classic in &report.strategies {
            let digest = crate::digest::PanelDigest::new(&report, classic, &scenario);
            assert_eq!(digest.panel, StrategyId::Classic(classic.strategy));
        }
    }
}
