//! From the external formats to the core's [`assignor::Group`], and back.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use assignor::consumer_group::{ConsumerGroup, ConsumerMember, ServerAssignor, TopicImage};
use assignor::protocol::{self, RebalanceProtocol, Selection};
use assignor::rebalance::{self, Lists, Rebalance};
use assignor::{AssignError, Group, Member, Strategy, Topic, TopicPartition, Uuid};

use crate::format::{previous_key, Owned, Previous, Scenario, Snapshot, TopicSpec};
use crate::validate::{self, compile_pattern, Problem};

/// A consumer's pattern subscriptions (`subscribe(Pattern)`), compiled: the one place that says which
/// topics they match, for the assignors' input ([`Model::resolve`]) and for the page's subscriptions
/// picker alike.
#[derive(Clone, Debug, Default)]
pub struct SubscriptionPatterns(Vec<(String, regex_lite::Regex)>);

impl SubscriptionPatterns {
    /// Compiles `patterns`; one that does not compile matches nothing (validation refuses it).
    pub fn new(patterns: &[String]) -> SubscriptionPatterns {
        SubscriptionPatterns(patterns.iter().filter_map(|p| Some((p.clone(), compile_pattern(p).ok()?))).collect())
    }

    /// Whether there is no pattern that compiles.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first pattern, as written, that matches the whole of `topic` (as Kafka matches them).
    pub fn matching(&self, topic: &str) -> Option<&str> {
        self.0.iter().find(|(_, re)| re.is_match(topic)).map(|(pattern, _)| pattern.as_str())
    }
}

/// A validated scenario, resolved: racks laid out, patterns matched, strategies parsed.
#[derive(Clone, Debug)]
pub struct Model {
    /// The topics, replica racks laid out.
    pub topics: Vec<Topic>,
    /// The consumers as members, owning nothing yet, in JoinGroup order.
    pub members: Vec<Member>,
    /// Each consumer's `partition.assignment.strategy`, in JoinGroup order.
    pub strategies: Vec<(String, Vec<Strategy>)>,
    /// The assignment before this rebalance, as the scenario has it.
    pub previous: Option<Previous>,
    /// The coordinator's choice among the strategy lists.
    pub selection: Selection,
    /// Each topic's id, in the order of `topics` (what the consumer protocol's assignors see).
    pub topic_ids: Vec<Uuid>,
    /// The server-side assignor the group runs, when it runs the consumer protocol (KIP-848).
    pub server_assignor: Option<ServerAssignor>,
}

impl Model {
    /// Resolves `scenario`, or says everything that stops it from running.
    pub fn new(scenario: &Scenario) -> Result<Model, Vec<Problem>> {
        let errors = validate::errors(scenario);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Model::resolve(scenario))
    }

    /// Resolves a scenario already checked free of errors (`validate::errors` is empty), for
    /// callers that validated it themselves.
    pub fn resolve(scenario: &Scenario) -> Model {
        let topics: Vec<Topic> = scenario.topics.iter().map(resolve_topic).collect();
        let members = scenario
            .consumers
            .iter()
            .map(|c| {
                let mut subscribed = c.topics.clone();
                let patterns = SubscriptionPatterns::new(&c.patterns);
                for topic in &scenario.topics {
                    if patterns.matching(&topic.name).is_some() && !subscribed.contains(&topic.name) {
                        subscribed.push(topic.name.clone());
                    }
                }
                Member {
                    id: c.id.clone(),
                    instance_id: c.instance_id.clone(),
                    rack: c.rack.clone().filter(|r| !r.is_empty()),
                    topics: subscribed,
                    owned: Vec::new(),
                    generation: None,
                    eager: false,
                }
            })
            .collect();
        let strategies: Vec<(String, Vec<Strategy>)> = scenario
            .consumers
            .iter()
            .map(|c| (c.id.clone(), c.strategies.iter().filter_map(|s| s.parse().ok()).collect()))
            .collect();
        let selection = protocol::select(&strategies);
        let topic_ids =
            scenario.topics.iter().map(|t| t.topic_id().unwrap_or_else(|| crate::topic_id::derived(&t.name))).collect();
        let server_assignor = scenario.server_assignor().filter(|_| scenario.consumer_protocol());
        Model {
            topics,
            members,
            strategies,
            previous: scenario.previous.clone(),
            selection,
            topic_ids,
            server_assignor,
        }
    }

    /// What the group's previous assignment under `strategy` was, member by member.
    pub fn previous_lists(&self, strategy: Strategy) -> Lists {
        self.lists_under(|name| name.parse::<Strategy>().ok() == Some(strategy)).unwrap_or_default()
    }

    /// The current target assignment of the consumer protocol's `assignor`, member by member. A group
    /// that had none under it (it ran the classic protocol, or the other server assignor) starts from
    /// what its members own under the classic strategy the coordinator picked, as Kafka converts a
    /// classic group on its first consumer-protocol heartbeat (KIP-848's online upgrade,
    /// `ConsumerGroup.fromClassicGroup`).
    pub fn current_target(&self, assignor: ServerAssignor) -> Lists {
        let key = previous_key(assignor);
        self.lists_under(|name| name == key)
            .or_else(|| self.selection.strategy.map(|s| self.previous_lists(s)))
            .unwrap_or_default()
    }

    /// The previous assignment kept under the first name `pick` accepts.
    fn lists_under(&self, pick: impl Fn(&str) -> bool) -> Option<Lists> {
        let previous = self.previous.as_ref()?;
        let (_, lists) = previous.assignments.iter().find(|(name, _)| pick(name))?;
        // One shared name per topic, not one allocation per partition: a snapshot may own a million.
        let mut names: HashMap<&str, Arc<str>> = HashMap::new();
        let mut out = Lists::new();
        for (member, list) in lists.iter() {
            let mut partitions = Vec::with_capacity(list.len());
            for (topic, number) in list {
                let topic = names.entry(topic.as_str()).or_insert_with(|| Arc::from(topic.as_str()));
                partitions.push(TopicPartition { topic: Arc::clone(topic), partition: *number });
            }
            out.insert(member.clone(), partitions);
        }
        Some(out)
    }

    /// The generation of what `member` owned before: the previous assignment's, unless the scenario
    /// says otherwise for this member.
    fn previous_generation(&self, member: &str) -> Option<i32> {
        let previous = self.previous.as_ref()?;
        previous.generations.get(member).copied().unwrap_or(Some(previous.generation))
    }

    /// The group about to rebalance under `strategy`: each member owns what it held before, if
    /// that still exists (a topic removed or recreated smaller takes its partitions with it).
    ///
    /// For the strategy the coordinator picks, the group is what Kafka would really run: members
    /// refused with `INCONSISTENT_GROUP_PROTOCOL` stay out, and members whose clients rebalance
    /// EAGER (because they also list an eager-only assignor) revoke everything before rejoining.
    /// Other strategies show the group as if every consumer ran that strategy alone.
    pub fn group(&self, strategy: Strategy) -> Group {
        self.before(strategy).0
    }

    /// [`Model::group`], and what members that are not in it owned under `strategy`: they left, or
    /// the coordinator refused them.
    pub fn before(&self, strategy: Strategy) -> (Group, Lists) {
        let mut previous = self.previous_lists(strategy);
        let counts: HashMap<&str, u32> = self.topics.iter().map(|t| (t.name.as_str(), t.partitions)).collect();
        let exists = |tp: &TopicPartition| counts.get(&*tp.topic).is_some_and(|&n| tp.partition < n);
        let selection = &self.selection;
        let chosen = selection.strategy == Some(strategy);
        let left_out: HashSet<&str> = selection
            .rejected
            .iter()
            .map(|(id, _)| id.as_str())
            .chain(selection.unconfigured.iter().map(String::as_str))
            .collect();
        let members = self
            .members
            .iter()
            .zip(&self.strategies)
            .filter(|(m, _)| !(chosen && left_out.contains(m.id.as_str())))
            .map(|(m, (_, listed))| {
                let eager = chosen && protocol::client_protocol(listed) == Some(RebalanceProtocol::Eager);
                match previous.remove(&m.id) {
                    Some(mut owned) => {
                        owned.retain(|tp| exists(tp));
                        Member { owned, generation: self.previous_generation(&m.id), eager, ..m.clone() }
                    }
                    None => Member { eager, ..m.clone() },
                }
            })
            .collect();
        // What is left of the previous assignment belonged to members not in the group.
        (Group { topics: self.topics.clone(), members }, previous)
    }

    /// The rebalance this scenario describes, under `strategy`.
    pub fn rebalance(&self, strategy: Strategy) -> Result<Rebalance, AssignError> {
        let (group, departed) = self.before(strategy);
        rebalance::rebalance(strategy, &group, &departed)
    }

    /// The coordinator's choice among the consumers' strategy lists.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// The group as the consumer protocol's coordinator holds it before it computes `assignor`'s next
    /// target: every consumer in the member map (in scenario order), each with its current target
    /// ([`Model::current_target`]); and that target, with what members no longer in the group held.
    /// Partitions that no longer exist (a topic removed, or recreated smaller) are dropped from that
    /// target, as for the classic strategies; the coordinator's members keep a deleted topic whose id
    /// the scenario knows ([`Previous::deleted_topic_ids`]), as Kafka's do.
    pub fn consumer_group(&self, assignor: ServerAssignor) -> (ConsumerGroup, Lists) {
        let mut current = self.current_target(assignor);
        let counts: HashMap<&str, u32> = self.topics.iter().map(|t| (t.name.as_str(), t.partitions)).collect();
        let exists = |tp: &TopicPartition| counts.get(&*tp.topic).is_some_and(|&n| tp.partition < n);
        let mut ids: HashMap<&str, Uuid> =
            self.topics.iter().zip(&self.topic_ids).map(|(t, &id)| (t.name.as_str(), id)).collect();
        // A deleted topic with a known id stays in the member's target, as in Kafka's coordinator;
        // the assignor drops it whole, but its place in the target's map orders the other topics.
        let deleted = self.previous.iter().flat_map(|p| &p.deleted_topic_ids);
        for (name, id) in deleted.filter(|(name, _)| !counts.contains_key(name.as_str())) {
            if let Ok(id) = id.parse() {
                ids.insert(name, id);
            }
        }
        let topics = self
            .topics
            .iter()
            .zip(&self.topic_ids)
            .map(|(t, &id)| TopicImage { name: t.name.clone(), id, partitions: t.partitions })
            .collect();
        let members = self
            .members
            .iter()
            .map(|m| {
                // The record lists each topic once, in the order first met.
                let mut target: Vec<(Uuid, Vec<u32>)> = Vec::new();
                let mut position: HashMap<Uuid, usize> = HashMap::new();
                for tp in current.get(&m.id).into_iter().flatten() {
                    let known = exists(tp) || !counts.contains_key(&*tp.topic);
                    let Some(&id) = ids.get(&*tp.topic).filter(|_| known) else { continue };
                    let at = *position.entry(id).or_insert_with(|| {
                        target.push((id, Vec::new()));
                        target.len() - 1
                    });
                    target[at].1.push(tp.partition);
                }
                ConsumerMember {
                    id: m.id.clone(),
                    instance_id: m.instance_id.clone(),
                    rack: m.rack.clone(),
                    topics: m.topics.clone(),
                    target,
                }
            })
            .collect();
        for list in current.values_mut() {
            list.retain(exists);
        }
        (ConsumerGroup { topics, members }, current)
    }

    /// The group's members as the classic core holds them, owning nothing: for measuring an
    /// assignment of any protocol.
    pub fn members_group(&self) -> Group {
        Group { topics: self.topics.clone(), members: self.members.clone() }
    }
}

fn resolve_topic(spec: &TopicSpec) -> Topic {
    let replica_racks = if spec.replicas.is_none() && spec.rack_overrides.is_empty() {
        Vec::new()
    } else {
        (0..spec.partitions).map(|p| spec.racks_of(p)).collect()
    };
    Topic { name: spec.name.clone(), partitions: spec.partitions, replica_racks }
}

impl TopicSpec {
    /// The racks of partition `p`'s replicas (`None`: a broker without a rack): its override, else
    /// the round-robin layout.
    pub fn racks_of(&self, p: u32) -> Vec<Option<String>> {
        if let Some(racks) = self.rack_overrides.get(&p) {
            return racks.clone();
        }
        match self.replicas.as_ref().filter(|l| !l.racks.is_empty() && l.factor > 0) {
            Some(l) => {
                (0..l.factor as usize).filter_map(|i| l.racks.get((p as usize + i) % l.racks.len()).cloned()).collect()
            }
            None => Vec::new(),
        }
    }
}

/// The scenario after `results` (one rebalance per strategy): their assignments become what each
/// strategy's members own, in the generation the last round made.
pub fn after_rebalance<'a>(scenario: &Scenario, results: impl IntoIterator<Item = &'a Rebalance>) -> Scenario {
    let results: Vec<&Rebalance> = results.into_iter().collect();
    let generation = results.iter().flat_map(|r| r.rounds.last()).map(|r| r.generation).max().unwrap_or(1);
    let assignments =
        results.iter().map(|r| (r.strategy.name().to_string(), Arc::new(lists_to_pairs(r.result())))).collect();
    // The new assignments name no deleted topic, so no deleted topic's id is kept.
    let previous =
        Previous { generation, generations: BTreeMap::new(), assignments, deleted_topic_ids: BTreeMap::new() };
    Scenario { previous: Some(previous), ..scenario.clone() }
}

impl Snapshot<'_> {
    /// The strategy and group this snapshot describes, or what is wrong with it.
    pub fn to_group(&self) -> Result<(Strategy, Group), String> {
        self.clone().into_group()
    }

    /// [`Snapshot::to_group`], letting go of each member's lists as soon as they are converted (a
    /// large group's owned partitions and subscriptions are the bulk of its memory).
    pub fn into_group(self) -> Result<(Strategy, Group), String> {
        if let Some(protocol) = self.protocol.as_ref().filter(|p| p.as_str() != "classic") {
            return Err(format!(
                "protocol {:?}: a classic snapshot says \"classic\" or nothing (\"consumer\" lines are for kap batch)",
                protocol.as_str()
            ));
        }
        let strategy: Strategy = self.strategy.parse()?;
        let mut total: u64 = 0;
        let mut topics = Vec::with_capacity(self.topics.0.len());
        for (name, partitions) in &self.topics.0 {
            let partitions = *partitions;
            if let Some(message) = validate::topic_name_problem(name) {
                return Err(format!("topic {:?}: {message}", name.as_str()));
            }
            if let Some(message) = validate::partition_count_problem(u64::from(partitions)) {
                return Err(format!("topic {:?}: {message}", name.as_str()));
            }
            total += u64::from(partitions);
            let replica_racks: Vec<Vec<Option<String>>> = match self.partition_racks.get(name) {
                None => Vec::new(),
                Some(rows) => rows
                    .iter()
                    .map(|replicas| replicas.iter().map(|rack| rack.as_ref().map(|r| r.to_string())).collect())
                    .collect(),
            };
            if !replica_racks.is_empty() && replica_racks.len() != partitions as usize {
                return Err(format!(
                    "partition_racks for {:?} lists {} partitions, the topic has {partitions}",
                    name.as_str(),
                    replica_racks.len()
                ));
            }
            topics.push(Topic { name: name.to_string(), partitions, replica_racks });
        }
        if total > assignor::MAX_PARTITIONS {
            return Err(format!("{total} partitions in all; at most {}", assignor::MAX_PARTITIONS));
        }
        if let Some((unknown, _)) = self.partition_racks.0.iter().find(|(t, _)| self.topics.get(t).is_none()) {
            return Err(format!("partition_racks names unknown topic {:?}", unknown.as_str()));
        }
        // One shared name per topic: a member's owned partitions point at it rather than each
        // holding a copy (a million owned partitions are common in large groups).
        let shared: Vec<Arc<str>> = topics.iter().map(|t| Arc::from(t.name.as_str())).collect();
        let position: HashMap<&str, usize> = topics.iter().enumerate().map(|(i, t)| (t.name.as_str(), i)).collect();
        // Owned lists usually name their topics in the snapshot's order (clients send them sorted):
        // the topic after the last one found is tried before the name is hashed.
        let mut next = 0;
        let mut topic_name = |name: &str| -> Arc<str> {
            let found = match shared.get(next) {
                Some(guess) if **guess == *name => Some(next),
                _ => position.get(name).copied(),
            };
            match found.and_then(|i| shared.get(i).map(|topic| (i, topic))) {
                Some((i, topic)) => {
                    next = i + 1;
                    Arc::clone(topic)
                }
                None => Arc::from(name),
            }
        };
        let members = self
            .members
            .into_iter()
            .map(|m| Member {
                id: m.id.to_string(),
                instance_id: m.instance_id.as_ref().map(|i| i.to_string()),
                rack: m.rack.as_ref().filter(|r| !r.is_empty()).map(|r| r.to_string()),
                topics: m.topics.iter().map(|t| t.to_string()).collect(),
                owned: m.owned.iter().map(|(t, p)| TopicPartition { topic: topic_name(t), partition: *p }).collect(),
                generation: m.generation,
                eager: false,
            })
            .collect();
        Ok((strategy, Group { topics, members }))
    }

    /// The snapshot as a scenario: the same rebalance, every strategy shown. Every consumer lists
    /// the snapshot's strategy, so that is the group's choice; what each member owned, from the
    /// generation it says, is the previous assignment under every strategy, so each panel shows
    /// the rebalance from that state.
    pub fn to_scenario(&self) -> Scenario {
        let topics = self
            .topics
            .0
            .iter()
            .map(|(name, partitions)| {
                let mut spec = TopicSpec::new(name.to_string(), *partitions);
                if let Some(racks) = self.partition_racks.get(name) {
                    spec.rack_overrides = racks
                        .iter()
                        .enumerate()
                        .map(|(p, r)| (p as u32, r.iter().map(|rack| rack.as_ref().map(|x| x.to_string())).collect()))
                        .collect();
                }
                spec
            })
            .collect();
        let consumers = self
            .members
            .iter()
            .map(|m| crate::format::ConsumerSpec {
                id: m.id.to_string(),
                instance_id: m.instance_id.as_ref().map(|i| i.to_string()),
                rack: m.rack.as_ref().map(|r| r.to_string()),
                topics: m.topics.iter().map(|t| t.to_string()).collect(),
                patterns: Vec::new(),
                strategies: vec![self.strategy.to_string()],
            })
            .collect();
        Scenario { topics, consumers, previous: self.previous(), ..Scenario::default() }
    }

    /// What the members owned before this rebalance, or `None` for a fresh group.
    fn previous(&self) -> Option<Previous> {
        if self.members.iter().all(|m| m.owned.is_empty() && m.generation.is_none()) {
            return None;
        }
        // Kafka's `DEFAULT_GENERATION` when no member says one.
        let generation = self.members.iter().filter_map(|m| m.generation).max().unwrap_or(-1);
        let generations = self
            .members
            .iter()
            .filter(|m| m.generation != Some(generation))
            .map(|m| (m.id.to_string(), m.generation))
            .collect();
        let owned: Arc<Owned> = Arc::new(
            self.members
                .iter()
                .map(|m| (m.id.to_string(), m.owned.iter().map(|(t, p)| (t.to_string(), *p)).collect()))
                .collect(),
        );
        let assignments = Strategy::ALL.iter().map(|s| (s.name().to_string(), Arc::clone(&owned))).collect();
        Some(Previous { generation, generations, assignments, deleted_topic_ids: BTreeMap::new() })
    }
}

/// An assignment as the formats write it.
pub fn lists_to_pairs(lists: &Lists) -> Owned {
    lists
        .iter()
        .map(|(m, list)| (m.clone(), list.iter().map(|tp| (tp.topic.to_string(), tp.partition)).collect()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::SubscriptionPatterns;

    #[test]
    fn a_pattern_matches_whole_topic_names_and_the_first_match_is_named() {
        let patterns = SubscriptionPatterns::new(&["events-.*".into(), "(".into(), "orders|events-1".into()]);
        assert_eq!(patterns.matching("events-1"), Some("events-.*"));
        assert_eq!(patterns.matching("orders"), Some("orders|events-1"));
        assert_eq!(patterns.matching("orders-1"), None, "a pattern matches the whole name, not a part");
        assert_eq!(patterns.matching("my-events-1"), None);
        assert!(!patterns.is_empty());
        assert!(SubscriptionPatterns::new(&["(".into()]).is_empty(), "a pattern that does not compile matches nothing");
    }
}
