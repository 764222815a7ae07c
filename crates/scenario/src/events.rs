//! The rebalance triggers of seed article 001 as one-step edits: a consumer joins or leaves
//! (crashes), partitions are added, a topic appears (and pattern subscriptions pick it up), a
//! consumer subscribes or unsubscribes. Each returns a new scenario, or says why it cannot apply,
//! leaving the scenario as it was.

use assignor::rebalance::Rebalance;
use assignor::Strategy;
use serde::{Deserialize, Serialize};

use crate::format::{ConsumerSpec, Scenario, TopicSpec};
use crate::model::{after_rebalance, Model};
use crate::validate::{self, Problem};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// The consumer leaves the group (a crash, a scale-in, a shutdown).
    Leave { consumer: String },
    /// A new consumer joins.
    Join { consumer: ConsumerSpec },
    /// The consumer's process restarts: it rejoins under a new `member.id` the coordinator hands
    /// out, keeping its configuration and `group.instance.id`, remembering no assignment.
    Restart { consumer: String, new_id: String },
    /// The topic grows to `partitions` partitions (Kafka never shrinks a topic).
    AddPartitions { topic: String, partitions: u32 },
    /// A topic is created; consumers with a matching pattern subscribe to it.
    CreateTopic { topic: TopicSpec },
    /// The consumer subscribes to the topic.
    Subscribe { consumer: String, topic: String },
    /// The consumer unsubscribes from the topic.
    Unsubscribe { consumer: String, topic: String },
}

impl Event {
    /// A short sentence for timelines and history.
    pub fn describe(&self) -> String {
        match self {
            Event::Leave { consumer } => format!("{consumer} leaves the group"),
            Event::Join { consumer } => format!("{} joins the group", consumer.id),
            Event::Restart { consumer, new_id } => format!("{consumer} restarts and rejoins as {new_id}"),
            Event::AddPartitions { topic, partitions } => format!("{topic} grows to {partitions} partitions"),
            Event::CreateTopic { topic } => {
                format!("topic {} is created with {} partitions", topic.name, topic.partitions)
            }
            Event::Subscribe { consumer, topic } => format!("{consumer} subscribes to {topic}"),
            Event::Unsubscribe { consumer, topic } => format!("{consumer} unsubscribes from {topic}"),
        }
    }

    /// `scenario` with this event applied, not yet rebalanced.
    pub fn apply(&self, scenario: &Scenario) -> Result<Scenario, String> {
        let mut next = scenario.clone();
        let consumer_index = |id: &str| {
            scenario.consumers.iter().position(|c| c.id == id).ok_or_else(|| format!("there is no consumer {id:?}"))
        };
        let topic_index = |name: &str| {
            scenario.topics.iter().position(|t| t.name == name).ok_or_else(|| format!("there is no topic {name:?}"))
        };
        match self {
            Event::Leave { consumer } => {
                next.consumers.remove(consumer_index(consumer)?);
            }
            Event::Join { consumer } => {
                if scenario.consumers.iter().any(|c| c.id == consumer.id) {
                    return Err(format!("there is already a consumer {:?}", consumer.id));
                }
                next.consumers.push(consumer.clone());
            }
            Event::Restart { consumer, new_id } => {
                if scenario.consumers.iter().any(|c| c.id == *new_id) {
                    return Err(format!("there is already a consumer {new_id:?}"));
                }
                let c = next.consumers.get_mut(consumer_index(consumer)?).ok_or("no such consumer")?;
                c.id = new_id.clone();
            }
            Event::AddPartitions { topic, partitions } => {
                let i = topic_index(topic)?;
                let current = scenario.topics.get(i).map_or(0, |t| t.partitions);
                if *partitions <= current {
                    return Err(format!("{topic} has {current} partitions; Kafka only adds partitions"));
                }
                if let Some(message) = validate::partition_count_problem(u64::from(*partitions)) {
                    return Err(message);
                }
                if let Some(t) = next.topics.get_mut(i) {
                    t.partitions = *partitions;
                }
            }
            Event::CreateTopic { topic } => {
                if let Some(message) = validate::topic_name_problem(&topic.name) {
                    return Err(message);
                }
                if topic_index(&topic.name).is_ok() {
                    return Err(format!("there is already a topic {:?}", topic.name));
                }
                next.topics.push(topic.clone());
            }
            Event::Subscribe { consumer, topic } => {
                topic_index(topic)?;
                let c = next.consumers.get_mut(consumer_index(consumer)?).ok_or("no such consumer")?;
                if c.topics.contains(topic) {
                    return Err(format!("{consumer} already subscribes to {topic}"));
                }
                c.topics.push(topic.clone());
            }
            Event::Unsubscribe { consumer, topic } => {
                let c = next.consumers.get_mut(consumer_index(consumer)?).ok_or("no such consumer")?;
                let before = c.topics.len();
                c.topics.retain(|t| t != topic);
                if c.topics.len() == before {
                    return Err(format!("{consumer} does not subscribe to {topic} by name"));
                }
            }
        }
        let errors = validate::errors(&next);
        match errors.first() {
            Some(problem) => Err(problem.to_string()),
            None => Ok(next),
        }
    }
}

/// Runs every strategy's rebalance for `scenario`.
pub fn rebalance_all(model: &Model) -> Vec<Result<Rebalance, assignor::AssignError>> {
    Strategy::ALL.iter().map(|&s| model.rebalance(s)).collect()
}

/// `scenario` after its rebalance: every strategy's result becomes what its members own. Strategies
/// whose rebalance fails keep their previous assignment.
pub fn settle(scenario: &Scenario) -> Result<Scenario, Vec<Problem>> {
    let model = Model::new(scenario)?;
    let results: Vec<Rebalance> = rebalance_all(&model).into_iter().flatten().collect();
    Ok(after_rebalance(scenario, &results))
}
