//! A `kap batch` line for the new consumer protocol (KIP-848): a target-assignment request to the
//! group coordinator.
//!
//! ```text
//! {"id":"g1","protocol":"consumer","strategy":"uniform",
//!  "topics":{"orders":6,"ads":0},"topic_ids":{"orders":"eZUeEuqvSSGGPuIabmBwqg","ads":"b5urPkmCSDOfZwlN8GMxUQ"},
//!  "members":[{"id":"o8PIcShyRL6cLz1qd5WPig","instance_id":null,"rack":null,
//!              "topics":["orders","missing"],"owned":[["orders",2]]}]}
//! ```
//!
//! - `strategy`: a server-side assignor, `uniform` or `range`;
//! - `topics`: the topics that exist, with their partition counts (0 allowed);
//! - `topic_ids`: an id for every topic in `topics`, and for deleted topics that only `owned` names;
//! - `members`: in the order they are put into the coordinator's member map; `owned` is the member's
//!   current target assignment, in the order listed (it may name unsubscribed or deleted topics).
//!
//! The answer is a classic line's: `{"id":…,"assignment":{member:[[topic,partition],…]},"error":null}`,
//! members in input order, partitions sorted by (topic, partition) since the assignor returns sets.
//! Where Kafka throws, `"assignment":null` and `"error":"<ExceptionClass>: <message>"`.
//!
//! Given to `kap show`, `explain` or `link` (or the page's import), the line opens as the scenario
//! of the same rebalance ([`ConsumerSnapshot::to_scenario`], through [`crate::read_file`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use assignor::consumer_group::{
    target_assignment, ConsumerGroup, ConsumerMember, CoordinatorError, ServerAssignor, TopicImage,
};
use assignor::{Strategy, Uuid};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::format::{previous_key, ConsumerSpec, Owned, Previous, Scenario, TopicSpec, CONSUMER_PROTOCOL};

/// The value of `protocol` that marks a consumer-protocol line.
pub const PROTOCOL: &str = "consumer";

/// One consumer-protocol line of `kap batch`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerSnapshot {
    /// Any JSON value, echoed in the answer.
    #[serde(default)]
    pub id: Option<serde_json::Value>,
    /// Always `"consumer"`.
    pub protocol: String,
    /// `group.remote.assignor`: `uniform` or `range`.
    pub strategy: String,
    /// Topic name to partition count, for the topics that exist.
    #[serde(deserialize_with = "unique_entries")]
    pub topics: Vec<(String, u32)>,
    /// Topic name to its `Uuid`.
    #[serde(deserialize_with = "unique_entries")]
    pub topic_ids: Vec<(String, String)>,
    /// In member-map insertion order.
    pub members: Vec<ConsumerSnapshotMember>,
}

/// A member of a consumer-protocol line.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerSnapshotMember {
    /// `member.id` (a client-generated `Uuid` string under KIP-848; any string works).
    pub id: String,
    /// `group.instance.id`, for a static member.
    #[serde(default)]
    pub instance_id: Option<String>,
    /// `client.rack`; no effect on the 4.0 assignors.
    #[serde(default)]
    pub rack: Option<String>,
    /// Subscribed topic names; missing topics allowed.
    #[serde(default)]
    pub topics: Vec<String>,
    /// The member's current target assignment.
    #[serde(default)]
    pub owned: Vec<(String, u32)>,
}

/// Why a consumer-protocol line has no assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsumerLineError {
    /// The line is not JSON.
    NotJson(String),
    /// The JSON does not have the line's shape (a missing, unknown or repeated field).
    NotASnapshot(String),
    /// A field Kafka could never hold, with where it is.
    Field {
        /// The field, as a path (`members[2].owned`).
        location: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The coordinator's answer: Kafka throws, or the group cannot exist.
    Coordinator(CoordinatorError),
}

impl fmt::Display for ConsumerLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConsumerLineError::NotJson(e) => write!(f, "not JSON: {e}"),
            ConsumerLineError::NotASnapshot(e) => write!(f, "not a consumer group snapshot: {e}"),
            ConsumerLineError::Field { location, problem } => write!(f, "{location}: {problem}"),
            ConsumerLineError::Coordinator(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConsumerLineError {}

fn field(location: impl Into<String>, problem: impl Into<String>) -> ConsumerLineError {
    ConsumerLineError::Field { location: location.into(), problem: problem.into() }
}

impl ConsumerSnapshot {
    /// The coordinator's view of this line, or the first field that no Kafka cluster could hold.
    pub fn to_group(&self) -> Result<(ServerAssignor, ConsumerGroup), ConsumerLineError> {
        if self.protocol != PROTOCOL {
            return Err(field("protocol", format!("expected {PROTOCOL:?}, got {:?}", self.protocol)));
        }
        let assignor = self.assignor()?;
        let mut ids: HashMap<&str, Uuid> = HashMap::with_capacity(self.topic_ids.len());
        let mut names_by_id: HashMap<Uuid, &str> = HashMap::with_capacity(self.topic_ids.len());
        for (name, text) in &self.topic_ids {
            let id: Uuid = text.parse().map_err(|e| field(format!("topic_ids.{name}"), format!("{e}")))?;
            if let Some(other) = names_by_id.insert(id, name) {
                return Err(field(format!("topic_ids.{name}"), format!("same id as {other:?}")));
            }
            ids.insert(name, id);
        }
        let mut topics = Vec::with_capacity(self.topics.len());
        for (name, partitions) in &self.topics {
            // What a classic line refuses of its topics, in the same words (`Snapshot::to_group`).
            let problem = crate::validate::topic_name_problem(name)
                .or_else(|| crate::validate::partition_count_problem(u64::from(*partitions)));
            if let Some(problem) = problem {
                return Err(field(format!("topics.{name}"), problem));
            }
            let id = *ids.get(name.as_str()).ok_or_else(|| field("topic_ids", format!("no id for topic {name:?}")))?;
            topics.push(TopicImage { name: name.clone(), id, partitions: *partitions });
        }
        let mut seen_members = HashSet::with_capacity(self.members.len());
        let mut members = Vec::with_capacity(self.members.len());
        for (i, member) in self.members.iter().enumerate() {
            if !seen_members.insert(member.id.as_str()) {
                return Err(field(format!("members[{i}].id"), format!("duplicate member id {:?}", member.id)));
            }
            // The record lists each topic once, in the order first met.
            let mut target: Vec<(Uuid, Vec<u32>)> = Vec::new();
            let mut position: HashMap<Uuid, usize> = HashMap::new();
            for (topic, partition) in &member.owned {
                let id = *ids.get(topic.as_str()).ok_or_else(|| {
                    field(format!("members[{i}].owned"), format!("topic {topic:?} has no id in topic_ids"))
                })?;
                let at = *position.entry(id).or_insert_with(|| {
                    target.push((id, Vec::new()));
                    target.len() - 1
                });
                target[at].1.push(*partition);
            }
            members.push(ConsumerMember {
                id: member.id.clone(),
                instance_id: member.instance_id.clone(),
                rack: member.rack.clone(),
                topics: member.topics.clone(),
                target,
            });
        }
        Ok((assignor, ConsumerGroup { topics, members }))
    }

    /// The server-side assignor the line names.
    fn assignor(&self) -> Result<ServerAssignor, ConsumerLineError> {
        self.strategy.parse().map_err(|e| field("strategy", format!("{e}")))
    }

    /// Reads a line known to be a consumer-protocol one ([`is_consumer_line`]): its shape only.
    pub fn read(line: &str) -> Result<ConsumerSnapshot, ConsumerLineError> {
        serde_json::from_str(line).map_err(|e| ConsumerLineError::NotASnapshot(e.to_string()))
    }

    /// The coordinator's new target for this line, members in input order: `kap batch`'s answer.
    pub fn target(&self) -> Result<MemberPartitions, ConsumerLineError> {
        let (assignor, group) = self.to_group()?;
        let target = target_assignment(assignor, &group).map_err(ConsumerLineError::Coordinator)?;
        Ok(group
            .members
            .iter()
            .map(|m| {
                let list = target.members.get(&m.id).map(Vec::as_slice).unwrap_or_default();
                (m.id.clone(), list.iter().map(|tp| (tp.topic.to_string(), tp.partition)).collect())
            })
            .collect())
    }

    /// The line as a scenario on the consumer protocol, for `kap show`, `explain`, `link` and the
    /// page's import: the same rebalance. The topics keep their ids, the members their order
    /// (the member map's) and ids, and each member's `owned` is its current target under both
    /// server-side assignors ([`crate::Model::current_target`]) and what it consumes under every
    /// classic strategy. Each consumer lists the classic strategy closest to the line's assignor
    /// ([`closest_classic_strategy`]), for the classic panels.
    ///
    /// A deleted topic that only `owned` names keeps its partitions in the previous assignment, by
    /// name, and its id in [`Previous::deleted_topic_ids`]: Kafka's coordinator keeps a deleted
    /// topic's id in a member's current target, and the assignor drops it whole; its place in the
    /// Java `HashMap` of that target reorders the member's other topics when the map's table grows
    /// (more than 12 topics, deleted ones counted, in one member's target).
    ///
    /// Only the strategy is checked here; [`ConsumerSnapshot::target`] checks the rest.
    pub fn to_scenario(&self) -> Result<Scenario, ConsumerLineError> {
        let assignor = self.assignor()?;
        let ids: HashMap<&str, &str> = self.topic_ids.iter().map(|(name, id)| (name.as_str(), id.as_str())).collect();
        let topics = self
            .topics
            .iter()
            .map(|(name, partitions)| TopicSpec {
                id: ids.get(name.as_str()).map(|id| id.to_string()),
                ..TopicSpec::new(name.clone(), *partitions)
            })
            .collect();
        let classic = closest_classic_strategy(assignor);
        let consumers = self
            .members
            .iter()
            .map(|m| ConsumerSpec {
                id: m.id.clone(),
                instance_id: m.instance_id.clone(),
                rack: m.rack.clone(),
                topics: m.topics.clone(),
                patterns: Vec::new(),
                strategies: vec![classic.name().to_string()],
            })
            .collect();
        Ok(Scenario {
            protocol: Some(CONSUMER_PROTOCOL.to_string()),
            // `uniform`, the broker's default, is left out, as `kap import` leaves it out.
            remote_assignor: (assignor != ServerAssignor::Uniform).then(|| assignor.name().to_string()),
            topics,
            consumers,
            previous: self.previous(),
            ..Scenario::default()
        })
    }

    /// Every member's `owned` under every strategy's name, or `None` when nobody owns anything.
    fn previous(&self) -> Option<Previous> {
        if self.members.iter().all(|m| m.owned.is_empty()) {
            return None;
        }
        let owned: Arc<Owned> = Arc::new(self.members.iter().map(|m| (m.id.clone(), m.owned.clone())).collect());
        let classic = Strategy::ALL.iter().map(|s| s.name());
        let server = ServerAssignor::ALL.iter().map(|&a| previous_key(a));
        let assignments = classic.chain(server).map(|name| (name.to_string(), Arc::clone(&owned))).collect();
        // The consumer protocol has no generations; the classic panels read this one as a settled
        // group's, as `kap import` writes it.
        let existing: HashSet<&str> = self.topics.iter().map(|(name, _)| name.as_str()).collect();
        let owned_names: HashSet<&str> = self.members.iter().flat_map(|m| &m.owned).map(|(t, _)| t.as_str()).collect();
        let deleted_topic_ids = self
            .topic_ids
            .iter()
            .filter(|(name, _)| !existing.contains(name.as_str()) && owned_names.contains(name.as_str()))
            .map(|(name, id)| (name.clone(), id.clone()))
            .collect();
        Some(Previous { generation: 1, generations: BTreeMap::new(), assignments, deleted_topic_ids })
    }
}

/// The classic strategy whose answer is closest to a server-side assignor's, for a consumer-protocol
/// group's classic panels: `uniform` keeps what each member owns up to its quota, as
/// cooperative-sticky keeps a balanced assignment; the server `range` gives the client range's
/// (non-rack-aware) answer.
pub fn closest_classic_strategy(assignor: ServerAssignor) -> Strategy {
    match assignor {
        ServerAssignor::Uniform => Strategy::CooperativeSticky,
        ServerAssignor::Range => Strategy::Range,
    }
}

/// Every member's partitions as `(topic, partition)` pairs, members in input order.
pub type MemberPartitions = Vec<(String, Vec<(String, u32)>)>;

/// The answer line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerAnswer {
    /// The line's `id`, or null.
    pub id: serde_json::Value,
    /// Every member's target, or why there is none.
    pub result: Result<MemberPartitions, ConsumerLineError>,
}

impl Serialize for ConsumerAnswer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Members<'a>(&'a [(String, Vec<(String, u32)>)]);
        impl Serialize for Members<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (member, list) in self.0 {
                    map.serialize_entry(member, list)?;
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("id", &self.id)?;
        match &self.result {
            Ok(members) => {
                map.serialize_entry("assignment", &Members(members))?;
                map.serialize_entry("error", &None::<String>)?;
            }
            Err(e) => {
                map.serialize_entry("assignment", &None::<()>)?;
                map.serialize_entry("error", &e.to_string())?;
            }
        }
        map.end()
    }
}

/// Whether a batch line asks for the consumer protocol (`"protocol":"consumer"`). Lines without
/// `protocol`, or with `"classic"`, are classic lines.
pub fn is_consumer_line(line: &str) -> bool {
    #[derive(Deserialize)]
    struct Protocol {
        #[serde(default)]
        protocol: Option<serde_json::Value>,
    }
    serde_json::from_str::<Protocol>(line).ok().and_then(|p| p.protocol).is_some_and(|p| p.as_str() != Some("classic"))
}

/// Answers one consumer-protocol line.
pub fn answer(line: &str) -> ConsumerAnswer {
    let raw: serde_json::Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(e) => {
            return ConsumerAnswer {
                id: serde_json::Value::Null,
                result: Err(ConsumerLineError::NotJson(e.to_string())),
            }
        }
    };
    let id = raw.get("id").cloned().unwrap_or(serde_json::Value::Null);
    let result = ConsumerSnapshot::read(line).and_then(|snapshot| snapshot.target());
    ConsumerAnswer { id, result }
}

/// A JSON object as its entries in order, refusing a key given twice (serde's maps keep the last).
fn unique_entries<'de, D, V>(deserializer: D) -> Result<Vec<(String, V)>, D::Error>
where
    D: Deserializer<'de>,
    V: Deserialize<'de>,
{
    struct Entries<V>(std::marker::PhantomData<V>);
    impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
        type Value = Vec<(String, V)>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
            let mut entries: Vec<(String, V)> = Vec::new();
            let mut keys = HashSet::new();
            while let Some((key, value)) = access.next_entry::<String, V>()? {
                if !keys.insert(key.clone()) {
                    return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
                }
                entries.push((key, value));
            }
            Ok(entries)
        }
    }
    deserializer.deserialize_map(Entries(std::marker::PhantomData))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer_json(line: &str) -> String {
        serde_json::to_string(&answer(line)).unwrap_or_default()
    }

    #[test]
    fn answers_the_issue_example() {
        let line = r#"{"id":"g1","protocol":"consumer","strategy":"uniform","topics":{"orders":6,"ads":0},"topic_ids":{"orders":"eZUeEuqvSSGGPuIabmBwqg","ads":"b5urPkmCSDOfZwlN8GMxUQ"},"members":[{"id":"o8PIcShyRL6cLz1qd5WPig","instance_id":null,"rack":null,"topics":["orders","missing"],"owned":[["orders",2]]}]}"#;
        assert_eq!(
            answer_json(line),
            r#"{"id":"g1","assignment":{"o8PIcShyRL6cLz1qd5WPig":[["orders",0],["orders",1],["orders",2],["orders",3],["orders",4],["orders",5]]},"error":null}"#
        );
    }

    #[test]
    fn refuses_with_a_location() {
        let no_id = r#"{"protocol":"consumer","strategy":"range","topics":{"a":1},"topic_ids":{},"members":[]}"#;
        assert_eq!(answer(no_id).result, Err(field("topic_ids", "no id for topic \"a\"")));
        let twice = r#"{"protocol":"consumer","strategy":"range","topics":{"a":1,"a":2},"topic_ids":{},"members":[]}"#;
        assert!(
            matches!(answer(twice).result, Err(ConsumerLineError::NotASnapshot(e)) if e.contains("duplicate key \"a\""))
        );
    }

    #[test]
    fn recognises_consumer_lines() {
        assert!(is_consumer_line(r#"{"protocol":"consumer"}"#));
        assert!(!is_consumer_line(r#"{"protocol":"classic","strategy":"range"}"#));
        assert!(!is_consumer_line(r#"{"strategy":"range"}"#));
    }
}
