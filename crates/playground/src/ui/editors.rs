//! The forms: topics, consumers with their subscriptions, and the one-click rebalance triggers.
//! Each control dispatches one `Edit`; `scenario` refuses what is invalid.
//!
//! Only what changed re-renders. The editors read the store; their lists and rows do not: a list
//! gets the scenario (compared by the topics or the consumers it shows, so the worker's answers
//! and edits of the other list pass it by), a row its own
//! topic or consumer (compared by value, not by the scenario it comes from), its own refusal and
//! callbacks that stay the same from one render to the next, so an edit to one consumer re-renders
//! that row and nothing else. Rows are keyed by [`RowKeys`], which survive renames; when a row's
//! remove button takes the row away, the focus moves to the same button of the next row shown.
//! Beyond the rows mounted at the opening, "Find a consumer" filters the consumers' rows: view
//! state, in no scenario, undo step or link ([`Filtered`]).

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
use gloo::timers::callback::Timeout;
use scenario::model::SubscriptionPatterns;
use scenario::{ConsumerSpec, Scenario, TopicSpec};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::{Action, Edit, Field, State};
use crate::ui::fields::{refusal, CountField, SearchField, TextField};
use crate::ui::find::{found, Needle};
use crate::ui::keys::{RowKey, RowKeys};
use crate::ui::reveal::{use_reach, use_reveal, Growth};
use crate::ui::{rendered, topic_class, Store};

/// Up to this many topics, each consumer's subscriptions are checkboxes in its row; beyond, a
/// picker (one open at a time) keeps the editor from rendering a checkbox per consumer and topic.
pub const INLINE_TOPICS: usize = 8;
/// The most topics a picker lists at once; a filter narrows the rest.
const PICKER_LIST: usize = 500;

/// `"a, b ,c"` to `["a", "b", "c"]`.
fn split_list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

fn optional(text: String) -> Option<String> {
    let text = text.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// A callback, for any DOM event, that makes one edit.
fn on<E: 'static>(store: &Store, edit: Edit) -> Callback<E> {
    let store = store.clone();
    Callback::from(move |_| store.dispatch(Action::Edit(edit.clone())))
}

/// The topic at a position of a scenario, compared by its value: a row that shows it re-renders
/// when it changed, not when anything else in the scenario did.
#[derive(Clone)]
pub struct TopicOf(Rc<Scenario>, usize);

impl TopicOf {
    pub fn new(scenario: Rc<Scenario>, index: usize) -> TopicOf {
        TopicOf(scenario, index)
    }

    pub fn get(&self) -> Option<&TopicSpec> {
        self.0.topics.get(self.1)
    }
}

impl PartialEq for TopicOf {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

/// The consumer at a position of a scenario, compared by its value.
#[derive(Clone)]
pub struct ConsumerOf(Rc<Scenario>, usize);

impl ConsumerOf {
    fn get(&self) -> Option<&ConsumerSpec> {
        self.0.consumers.get(self.1)
    }
}

impl PartialEq for ConsumerOf {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

/// The names of a scenario's topics, in order, compared by value.
#[derive(Clone)]
pub struct TopicNames(Rc<Scenario>);

impl TopicNames {
    fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.topics.iter().map(|t| t.name.as_str())
    }

    fn len(&self) -> usize {
        self.0.topics.len()
    }
}

/// For each topic, in order, the consumer's pattern that matches it (`subscribe(Pattern)`), as the
/// assignors' input resolves patterns ([`SubscriptionPatterns`]); empty for a consumer without patterns.
type PatternMatches = Rc<Vec<Option<AttrValue>>>;

/// A row's pattern matches, computed again only when its patterns or the topic names change: a
/// consumer without patterns (the usual row) compiles and compares nothing.
#[hook]
fn use_pattern_matches(patterns: Vec<String>, topics: &TopicNames) -> PatternMatches {
    let topics = (!patterns.is_empty()).then(|| topics.clone());
    use_memo((patterns, topics), |(patterns, topics)| {
        let compiled = SubscriptionPatterns::new(patterns);
        match topics {
            Some(topics) if !compiled.is_empty() => {
                topics.iter().map(|topic| compiled.matching(topic).map(AttrValue::from)).collect()
            }
            _ => Vec::new(),
        }
    })
}

/// What a consumer's subscription to the topic at `t` is: explicit (a checkbox to toggle), matched
/// by a pattern (shown checked, changed by editing the pattern) or neither.
fn matched_by(matches: &PatternMatches, t: usize) -> Option<&AttrValue> {
    matches.get(t).and_then(Option::as_ref)
}

impl PartialEq for TopicNames {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.iter().eq(other.iter())
    }
}

/// The store's dispatcher: the same from one render to the next.
type Dispatcher = UseReducerDispatcher<State>;

/// A refused edit of a row's field and why, as that row shows it.
pub type Refused = Option<(Field, AttrValue)>;

/// The refusal of the last edit if it came from a field `belongs` to.
fn refused_where(state: &State, belongs: impl Fn(Field) -> bool) -> Refused {
    let field = state.refused.as_ref()?.field.filter(|f| belongs(*f))?;
    Some((field, state.refusal(field)?.into()))
}

fn error_of(refused: &Refused, field: Field) -> Option<AttrValue> {
    refused.as_ref().filter(|(f, _)| *f == field).map(|(_, message)| message.clone())
}

fn topic_of_field(field: Field) -> Option<usize> {
    match field {
        Field::TopicName(i)
        | Field::Partitions(i)
        | Field::ReplicationFactor(i)
        | Field::ReplicaRacks(i)
        | Field::PartitionRacks(i, _) => Some(i),
        _ => None,
    }
}

fn consumer_of_field(field: Field) -> Option<usize> {
    match field {
        Field::ConsumerId(i) | Field::InstanceId(i) | Field::Rack(i) | Field::Strategies(i) | Field::Patterns(i) => {
            Some(i)
        }
        _ => None,
    }
}

/// The callbacks every row of an editor shares, the same from one render to the next.
#[hook]
fn use_row_callbacks(dispatcher: Dispatcher) -> (Callback<Edit>, Callback<(Field, String)>) {
    let edit = use_callback(dispatcher.clone(), |edit: Edit, dispatcher| dispatcher.dispatch(Action::Edit(edit)));
    let refuse = use_callback(dispatcher, |(field, message): (Field, String), dispatcher| {
        dispatcher.dispatch(Action::Refuse { field, error: refusal(field, message) })
    });
    (edit, refuse)
}

/// A row's callback that makes the edit `make` builds from its position and a value; the same
/// callback while the row keeps its position.
#[hook]
fn use_edit<T: 'static>(index: usize, edit: &Callback<Edit>, make: fn(usize, T) -> Edit) -> Callback<T> {
    use_callback((index, edit.clone()), move |value: T, (index, edit)| edit.emit(make(*index, value)))
}

/// [`use_edit`]'s twin for a field's draft (`state::Action::Draft`): the edit `make` would build
/// from the value typed so far, `None` when there is no draft.
#[hook]
fn use_draft<T: 'static>(
    index: usize,
    draft: &Callback<Option<Edit>>,
    make: fn(usize, T) -> Edit,
) -> Callback<Option<T>> {
    use_callback((index, draft.clone()), move |value: Option<T>, (index, draft)| {
        draft.emit(value.map(|value| make(*index, value)))
    })
}

/// The edit of a topic's partition count.
fn partitions_edit(topic: usize, partitions: u32) -> Edit {
    Edit::SetPartitions { topic, partitions }
}

/// The edit of a topic's replication factor as typed: what is not a number is 0, which removes the layout.
fn replication_factor_edit(topic: usize, text: String) -> Edit {
    Edit::SetReplicationFactor { topic, factor: text.trim().parse().unwrap_or(0) }
}

/// The rows a list shows, in order: each one's position in the scenario's list and its key (every
/// row of the topics editor; the consumers a filter finds).
type ShownRows = Rc<RefCell<Vec<(usize, RowKey)>>>;

/// Where the focus goes once a row's remove button has taken its row away: the same button of the
/// row shown after it, or of the row before when it was the last, or the editor's add button
/// when none is left.
#[derive(Default)]
struct Removal {
    pending: Option<(RowKey, Option<RowKey>)>,
}

impl Removal {
    /// Before the row at `index` of the scenario's list is removed, from the rows `shown`.
    fn plan(&mut self, shown: &[(usize, RowKey)], index: usize) {
        let Some(at) = shown.iter().position(|&(i, _)| i == index) else { return };
        let neighbour = shown.get(at + 1).or_else(|| shown.get(at.checked_sub(1)?)).map(|&(_, key)| key);
        self.pending = Some((shown[at].1, neighbour));
    }

    /// After a render: moves the focus if the row planned for removal is gone.
    fn settle(&mut self, keys: &[RowKey], rows: &NodeRef, button: &str, add: &NodeRef) {
        let Some((removed, neighbour)) = self.pending.take() else { return };
        if keys.contains(&removed) {
            return;
        }
        let target = neighbour
            .filter(|key| keys.contains(key))
            .and_then(|key| {
                rows.cast::<web_sys::Element>()?.query_selector(&format!("[data-row=\"{key}\"] {button}")).ok()?
            })
            .or_else(|| add.cast::<web_sys::Element>());
        if let Some(element) = target.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
            let _ = element.focus();
        }
    }
}

/// A callback that removes the row at its position with `make`, moving the focus afterwards.
#[hook]
fn use_remove(
    edit: &Callback<Edit>,
    shown: &ShownRows,
    removal: &Rc<RefCell<Removal>>,
    make: fn(usize) -> Edit,
) -> Callback<usize> {
    let (shown, removal) = (Rc::clone(shown), Rc::clone(removal));
    use_callback(edit.clone(), move |index: usize, edit| {
        removal.borrow_mut().plan(&shown.borrow(), index);
        edit.emit(make(index));
    })
}

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// Told once every row of the editor's window is rendered (the page opens its next part after
    /// them, so that no frame renders both).
    #[prop_or_default]
    pub on_revealed: Option<Callback<()>>,
}

/// Topic rows rendered when the editor appears; the next slices grow by as many a frame up to
/// [`TOPIC_SLICE`]. Ten topics at once, the page's first heavy render (its code cold, and the
/// page's first layout of the editing column), took 20–31 ms of the page thread's CPU.
const FIRST_TOPICS: usize = 5;
/// The most topic rows rendered in a frame.
const TOPIC_SLICE: usize = 10;

#[function_component]
pub fn TopicsEditor(props: &EditorProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let refused = store.refused.as_ref().and_then(|r| r.field).and_then(topic_of_field).and_then(|index| {
        let refused = refused_where(&store, |f| topic_of_field(f) == Some(index))?;
        Some((index, refused))
    });
    html! {
        <TopicList scenario={TopicsIn(Rc::clone(&store.scenario))} {refused} dispatcher={store.dispatcher()}
            on_revealed={props.on_revealed.clone()} />
    }
}

/// An editor's list: the scenario it shows, the row whose field was refused last (and why), and
/// the store's dispatcher; not the store's context, which would render it again for every answer.
#[derive(Properties, PartialEq)]
struct ListProps<Shown: PartialEq> {
    /// The scenario, compared by the part the list shows ([`TopicsIn`], [`ConsumersIn`]): an
    /// answer from the worker, which changes what the panels show (and, for a small group, the
    /// scenario's previous assignment) but never the topics or the consumers, does not re-render
    /// the editor.
    scenario: Shown,
    refused: Option<(usize, (Field, AttrValue))>,
    dispatcher: Dispatcher,
    /// Told when every row of the list's window is rendered (the consumers editor's). An `Option`:
    /// a default `Callback` is a new one at each render, which would never compare equal.
    #[prop_or_default]
    on_revealed: Option<Callback<()>>,
}

/// A scenario as the topics editor shows it, compared by its topics.
#[derive(Clone)]
struct TopicsIn(Rc<Scenario>);

impl PartialEq for TopicsIn {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0.topics == other.0.topics
    }
}

/// A scenario as the consumers editor shows it, compared by its consumers and topic names: a
/// partition count typed or a topic's racks make a new scenario with the same consumers, and the
/// editor (at a big group, its 200 rows and its row keys over every consumer) is not rendered
/// again on the edit's way to the screen.
#[derive(Clone)]
struct ConsumersIn(Rc<Scenario>);

impl PartialEq for ConsumersIn {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
            || (self.0.consumers == other.0.consumers
                && TopicNames(Rc::clone(&self.0)) == TopicNames(Rc::clone(&other.0)))
    }
}

impl<Shown: PartialEq> ListProps<Shown> {
    /// The refusal the row at `index` shows.
    fn refused_at(&self, index: usize) -> Refused {
        self.refused.as_ref().filter(|(at, _)| *at == index).map(|(_, refused)| refused.clone())
    }
}

#[function_component]
fn TopicList(props: &ListProps<TopicsIn>) -> Html {
    rendered("TopicsEditor");
    let (edit, refuse) = use_row_callbacks(props.dispatcher.clone());
    // A count typed, computed ahead (`state::Action::Draft`).
    let draft = use_callback(props.dispatcher.clone(), |edit, dispatcher| dispatcher.dispatch(Action::Draft(edit)));
    let keys = use_mut_ref(RowKeys::default);
    let shown = use_mut_ref(Vec::new);
    let removal = use_mut_ref(Removal::default);
    let remove = use_remove(&edit, &shown, &removal, |topic| Edit::RemoveTopic { topic });
    let (table, add_button) = (use_node_ref(), use_node_ref());
    let scenario = Rc::clone(&props.scenario.0);
    let row_keys = keys.borrow_mut().follow(scenario.topics.iter().map(|t| t.name.as_str()));
    *shown.borrow_mut() = row_keys.iter().copied().enumerate().collect();
    {
        let (row_keys, table, add_button) = (row_keys.clone(), table.clone(), add_button.clone());
        use_effect(move || removal.borrow_mut().settle(&row_keys, &table, "button.remove", &add_button));
    }
    // The rows appear a slice per frame; rows added to a list already shown, at once.
    let revealed = use_reveal(row_keys.len(), FIRST_TOPICS, TOPIC_SLICE, Growth::AtOnce);
    use_revealed(revealed >= row_keys.len(), props.on_revealed.clone());
    let rows = row_keys.iter().take(revealed).enumerate().map(|(index, &row)| {
        let refused = props.refused_at(index);
        html! {
            <TopicRow key={row} {row} {index} topic={TopicOf(Rc::clone(&scenario), index)} {refused}
                edit={edit.clone()} draft={draft.clone()} refuse={refuse.clone()} remove={remove.clone()} />
        }
    });
    html! {
        <section class="editor topics-editor" aria-labelledby="topics-heading">
            <h2 id="topics-heading">{ "Topics" }</h2>
            <table class="topics" ref={table}>
                // Keyed as the rows are: the table's children are one list, which Yew diffs by key
                // only when every child has one; otherwise it pairs them from the end, and a row
                // added after the others re-created the whole table, its head and every row.
                <thead key="columns"><tr>
                    <th scope="col">{ "Name" }</th><th scope="col">{ "Partitions" }</th>
                    <th scope="col">{ "Replicas × racks" }</th><th scope="col"><span class="sr-only">{ "Actions" }</span></th>
                </tr></thead>
                { for rows }
            </table>
            <button type="button" ref={add_button} onclick={edit.reform(|_: MouseEvent| Edit::AddTopic)}>{ "Add topic" }</button>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct TopicRowProps {
    row: RowKey,
    index: usize,
    topic: TopicOf,
    refused: Refused,
    edit: Callback<Edit>,
    draft: Callback<Option<Edit>>,
    refuse: Callback<(Field, String)>,
    remove: Callback<usize>,
}

#[function_component]
fn TopicRow(props: &TopicRowProps) -> Html {
    rendered("TopicRow");
    let i = props.index;
    let rename = use_edit(i, &props.edit, |topic, name| Edit::RenameTopic { topic, name });
    let draft_partitions = use_draft(i, &props.draft, partitions_edit);
    let set_partitions = use_edit(i, &props.edit, partitions_edit);
    let draft_factor = use_draft(i, &props.draft, replication_factor_edit);
    let set_factor = use_edit(i, &props.edit, replication_factor_edit);
    let set_racks = use_edit(i, &props.edit, |topic, text: String| Edit::SetReplicaRacks {
        topic,
        racks: scenario::format::parse_replica_racks(&text),
    });
    let set_partition_racks = use_edit(i, &props.edit, |topic, (partition, text): (u32, String)| {
        let racks =
            (!text.trim().is_empty() || text.contains(',')).then(|| scenario::format::parse_replica_racks(&text));
        Edit::SetPartitionRacks { topic, partition, racks }
    });
    let remove = use_callback((i, props.remove.clone()), |_: MouseEvent, (i, remove)| remove.emit(*i));
    let Some(topic) = props.topic.get() else { return html! {} };
    let factor = topic.replicas.as_ref().map_or(0, |l| l.factor);
    let racks = topic.replicas.as_ref().map(|l| scenario::format::replica_racks_text(&l.racks)).unwrap_or_default();
    let racks_known = topic.replicas.is_some() || !topic.rack_overrides.is_empty();
    let error = |field| error_of(&props.refused, field);
    let refuse = props.refuse.clone();
    html! {
        <tbody data-row={props.row.to_string()}>
        <tr class={topic_class(i)} data-topic={topic.name.clone()}>
            <td><span class="swatch" aria-hidden="true"></span>
                <TextField label={format!("Name of topic {}", i + 1)} compact=true value={topic.name.clone()} field={Field::TopicName(i)}
                    error={error(Field::TopicName(i))} on_input={rename} on_refuse={refuse.clone()} /></td>
            <td><CountField label={format!("Partitions of {}", topic.name)} value={topic.partitions} field={Field::Partitions(i)}
                error={error(Field::Partitions(i))} on_set={set_partitions} on_draft={draft_partitions} on_refuse={refuse.clone()} /></td>
            <td class="replicas">
                <TextField label={format!("Replication factor of {}", topic.name)} compact=true kind="number" value={if factor == 0 { String::new() } else { factor.to_string() }} placeholder="–"
                    field={Field::ReplicationFactor(i)} error={error(Field::ReplicationFactor(i))} on_input={set_factor} on_draft={draft_factor} on_refuse={refuse.clone()} />
                <TextField label={format!("Racks of {}", topic.name)} compact=true value={racks} placeholder="a,b,- (- = none)"
                    field={Field::ReplicaRacks(i)} error={error(Field::ReplicaRacks(i))} on_input={set_racks} on_refuse={refuse.clone()} />
            </td>
            <td><button type="button" class="icon remove" aria-label={format!("Remove topic {}", topic.name)} onclick={remove}>{ "✕" }</button></td>
        </tr>
        if racks_known {
            <tr class="partition-racks"><td colspan="4">{ partition_racks(i, topic, &props.refused, &set_partition_racks, &refuse) }</td></tr>
        }
        </tbody>
    }
}

/// The most partitions whose racks are edited one by one.
const RACK_EDIT_LIMIT: u32 = 64;

/// Each partition's replica racks, editable one by one (an override of the layout).
fn partition_racks(
    i: usize,
    topic: &TopicSpec,
    refused: &Refused,
    set: &Callback<(u32, String)>,
    refuse: &Callback<(Field, String)>,
) -> Html {
    if topic.partitions > RACK_EDIT_LIMIT {
        return html! { <p class="hint">{ format!("Racks follow the layout (per-partition editing up to {RACK_EDIT_LIMIT} partitions).") }</p> };
    }
    let rows = (0..topic.partitions).map(|p| {
        let overridden = topic.rack_overrides.contains_key(&p);
        let field = Field::PartitionRacks(i, p);
        html! {
            <span class={classes!("partition-rack", overridden.then_some("overridden"))}>
                <span class="pnum" aria-hidden="true">{ p }</span>
                <TextField label={format!("Replica racks of {}-{p}", topic.name)} compact=true value={scenario::format::replica_racks_text(&topic.racks_of(p))}
                    placeholder="none (- for a broker without a rack)" {field} error={error_of(refused, field)}
                    on_input={set.reform(move |text| (p, text))} on_refuse={refuse.clone()} />
            </span>
        }
    });
    html! {
        <details>
            <summary>{ format!("Racks of each partition of {}", topic.name) }</summary>
            <div class="partition-rack-grid">{ for rows }</div>
        </details>
    }
}

/// The most consumer rows rendered at first; "Show more" adds as many again. A group of
/// thousands of consumers would otherwise put tens of thousands of elements on the page (each row
/// has its fields and buttons) and block the page's thread for a second each time it renders them.
pub const CONSUMER_ROWS: usize = 200;
/// Rows rendered per frame while a window of rows appears (the page opening, "Show more"; `ui::reveal`):
/// 200 rows at once blocked the page's thread for 300 ms at 100,000 partitions, and 20 rows, the
/// first time their code runs, were the opening's longest tasks (25–40 ms of the thread's CPU at
/// 1,000 partitions on the shared 2-core machine, where the compute workers start at the same time);
/// ten later ones 15–21 ms at load average 8 (`opening.mjs`, stop 20).
const ROW_SLICE: usize = 6;
/// Rows rendered when the editor appears, with the rest of its frame's work; the slices after it
/// grow by as many a frame up to [`ROW_SLICE`] (5, 6, 6, …): ten rows the first time their code ran
/// took 20–34 ms of the page thread's CPU.
const FIRST_ROWS: usize = 5;
/// Rows mounted at the opening, in two frames of [`FIRST_ROWS`]: more than a 900-pixel-high window
/// shows below the topics; the others are mounted as the page scrolls toward them
/// (`ui::reveal::use_reach`, [`ROW_SLICE`] at a time). All 50 rows of a 1,000-partition group
/// mounted at the opening were its longest tasks, each slice's frame stretched by Chromium's
/// autofill parsing the page's form fields again (stop 21).
const OPENING_ROWS: usize = 2 * FIRST_ROWS;

#[function_component]
pub fn ConsumersEditor(props: &EditorProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let refused = store.refused.as_ref().and_then(|r| r.field).and_then(consumer_of_field).and_then(|index| {
        let refused = refused_where(&store, |f| consumer_of_field(f) == Some(index))?;
        Some((index, refused))
    });
    html! {
        <ConsumerList scenario={ConsumersIn(Rc::clone(&store.scenario))} {refused} dispatcher={store.dispatcher()}
            on_revealed={props.on_revealed.clone()} />
    }
}

/// Consumers added beyond the rows shown: a consumer that joins a group of more than
/// [`CONSUMER_ROWS`] lands after rows the editor does not show, so it is shown after them (and
/// scrolled to), rather than left behind "Show more".
#[derive(Default)]
struct Added {
    /// The row count and the highest row key at the last render: keys are handed out in
    /// increasing order, so a key above it is a row added since.
    seen: (usize, RowKey),
    /// Rows added beyond the window, shown after it.
    pinned: Vec<RowKey>,
    /// The row to bring into view after this render.
    scroll_to: Option<RowKey>,
    /// The pinned row last brought into view, while rows are still being mounted before it: each
    /// slice mounted as the page nears the list's end (`use_reach`) pushes it down, so it is
    /// brought back into view after each until it is in its place or no more rows come.
    following: Option<RowKey>,
    /// The Add consumer button was pressed: the row its edit adds is brought into view even
    /// where it is not pinned (a consumer that joins from the events bar is not: the page stays
    /// where the person is).
    asked: bool,
}

/// The most rows an edit adds that [`Added`] pins (more are a new group).
const A_FEW_ADDED: usize = 10;

impl Added {
    /// Follows the rows shown to `keys` (`newest`: the highest key of the whole list, whose rows
    /// a filter may not show); rows added beyond the first `window` (by an edit adding a few, not
    /// by a whole new group, nor rows a filter shows again) are pinned.
    fn follow(&mut self, keys: &[RowKey], window: usize, newest: RowKey) {
        let (count, highest) = self.seen;
        let beyond = keys.get(window..).unwrap_or_default();
        // A pinned row stays pinned while it is beyond the window ("Show more" may reach it).
        self.pinned.retain(|key| beyond.contains(key));
        let grew = keys.len().saturating_sub(count);
        if count > 0 && (1..=A_FEW_ADDED).contains(&grew) {
            for &key in keys.iter().filter(|&&key| key > highest) {
                let pinned = beyond.contains(&key);
                if pinned && !self.pinned.contains(&key) {
                    self.pinned.push(key);
                }
                // The one row added is brought into view where it is pinned, and wherever it lands
                // when the Add consumer button asked for it: at the end of a list whose rows are
                // all mounted it takes the button's place, which may be at the window's bottom
                // edge. Only a pinned row has rows still to come before it, so only it is followed.
                if grew == 1 && (pinned || self.asked) {
                    self.scroll_to = Some(key);
                    if pinned {
                        self.following = Some(key);
                    }
                }
            }
        }
        if grew > 0 {
            self.asked = false;
        }
        self.seen = (keys.len(), newest.max(highest));
    }

    /// Brings the row it follows back into view if this render mounted rows before it (`grew`);
    /// stops following it once no rows are left to mount (`all_mounted`) or it is in its place.
    fn keep_in_view(&mut self, grew: bool, all_mounted: bool) {
        if grew && self.scroll_to.is_none() {
            self.scroll_to = self.following;
        }
        if all_mounted || !self.following.is_some_and(|key| self.pinned.contains(&key)) {
            self.following = None;
        }
    }

    /// The pinned rows' positions, in order.
    fn positions(&self, keys: &[RowKey]) -> Vec<usize> {
        keys.iter().enumerate().filter(|(_, key)| self.pinned.contains(key)).map(|(at, _)| at).collect()
    }
}

/// Tells `on_revealed` once `all` the list's rows are rendered (again whenever they are again).
#[hook]
fn use_revealed(all: bool, on_revealed: Option<Callback<()>>) {
    use_effect_with(all, move |&all| {
        if let (true, Some(on_revealed)) = (all, on_revealed) {
            on_revealed.emit(());
        }
    });
}

/// The rows a keystroke in "Find a consumer" mounts at least (with the rows it still shows first):
/// the others come a slice per frame as the page nears them.
const FILTER_ROWS: usize = 2;

/// Beyond this many consumers the editor offers "Find a consumer": the rows mounted at the
/// opening, beyond which the browser's find-in-page no longer reaches every consumer (the others
/// are not in the DOM until the page scrolls near them).
const FIND_ABOVE: usize = OPENING_ROWS;

/// The consumers a filter shows: those whose `member.id` or `group.instance.id` contains the text
/// typed, and those it already showed, which stay until the text changes (a consumer renamed out
/// of the filter does not vanish under the person's cursor), and those added since (Add consumer,
/// Duplicate, a consumer that joins: the person sees what they added).
#[derive(Default)]
struct Filtered {
    needle: Needle,
    /// The rows shown under `needle` at the last render, with their ids then.
    kept: HashMap<RowKey, String>,
    /// The highest row key at the last render: keys are handed out in increasing order, so a key
    /// above it is a row added since.
    highest: RowKey,
}

impl Filtered {
    /// The rows shown for `needle` (positions in `consumers`, in order, and their keys) and
    /// whether the filter changed since the last render.
    fn follow(&mut self, needle: Needle, consumers: &[ConsumerSpec], keys: &[RowKey]) -> (Vec<(usize, RowKey)>, bool) {
        let changed = needle != self.needle;
        let since = self.highest;
        self.highest = keys.iter().copied().max().unwrap_or(0).max(since);
        // An edit adds a few rows or renames one; a new group (a link, a preset, a file) hands
        // the kept rows' keys to other consumers, and is only filtered.
        let added = keys.iter().filter(|&&key| key > since).count();
        let renamed =
            consumers.iter().zip(keys).filter(|(c, key)| self.kept.get(key).is_some_and(|id| *id != c.id)).count();
        let edit = since > 0 && added <= A_FEW_ADDED && renamed <= 1;
        let kept = if changed || !edit { HashMap::new() } else { std::mem::take(&mut self.kept) };
        self.needle = needle;
        let needle = &self.needle;
        let shown: Vec<(usize, RowKey)> = consumers
            .iter()
            .zip(keys)
            .enumerate()
            .filter(|&(_, (consumer, key))| {
                needle.finds(&consumer.id)
                    || consumer.instance_id.as_deref().is_some_and(|id| needle.finds(id))
                    || kept.contains_key(key)
                    || (edit && *key > since)
            })
            .map(|(at, (_, &key))| (at, key))
            .collect();
        if !needle.is_empty() {
            self.kept = shown.iter().filter_map(|&(at, key)| Some((key, consumers.get(at)?.id.clone()))).collect();
        }
        (shown, changed)
    }
}

#[function_component]
fn ConsumerList(props: &ListProps<ConsumersIn>) -> Html {
    rendered("ConsumersEditor");
    let (edit, refuse) = use_row_callbacks(props.dispatcher.clone());
    let keys = use_mut_ref(RowKeys::default);
    let shown_rows = use_mut_ref(Vec::new);
    let removal = use_mut_ref(Removal::default);
    let remove = use_remove(&edit, &shown_rows, &removal, |consumer| Edit::Leave { consumer });
    let open_picker = use_state(|| None::<RowKey>);
    let query = use_state(String::new);
    let on_query = use_callback(query.setter(), |text: String, query| query.set(text));
    // "Show 200 more" pages through the rows of the filter it was clicked under.
    let limit = use_state(|| (Needle::default(), CONSUMER_ROWS));
    let filtered = use_mut_ref(Filtered::default);
    let added = use_mut_ref(Added::default);
    let (list, add_button, ahead) = (use_node_ref(), use_node_ref(), use_node_ref());
    let scenario = Rc::clone(&props.scenario.0);
    let all_keys = keys.borrow_mut().follow(scenario.consumers.iter().map(|c| c.id.as_str()));
    let needle = Needle::new(&query);
    let (shown, new_filter) = filtered.borrow_mut().follow(needle.clone(), &scenario.consumers, &all_keys);
    let row_keys: Vec<RowKey> = shown.iter().map(|&(_, key)| key).collect();
    *shown_rows.borrow_mut() = shown;
    let shown = shown_rows.borrow();
    let window = if limit.0 == needle { limit.1 } else { CONSUMER_ROWS }.min(row_keys.len());
    // The window's rows are mounted as the page scrolls toward them; a row once mounted stays so
    // when rows come before it (a consumer duplicated), which would otherwise push it out. A new
    // filter keeps the rows it still shows first and mounts at most [`FILTER_ROWS`] others with
    // the keystroke, the rest as the page nears them: ten rows swapped took 30–44 ms of the page
    // thread's CPU at 2,000 consumers, a keystroke's task, five 17–19 ms (median), two 12–13 ms.
    let reach = use_reach(OPENING_ROWS, ROW_SLICE, &ahead);
    let reach_since = use_mut_ref(|| 0);
    let mounted_keys = use_mut_ref(Vec::<RowKey>::new);
    if new_filter {
        let still = mounted_keys.borrow().iter().zip(&row_keys).take_while(|(a, b)| a == b).count();
        *reach_since.borrow_mut() = reach.saturating_sub(still.max(FILTER_ROWS));
        mounted_keys.borrow_mut().truncate(still);
    }
    let reach = reach.saturating_sub(*reach_since.borrow());
    let last_mounted = mounted_keys.borrow().last().copied();
    let kept = last_mounted.and_then(|key| row_keys.iter().position(|&k| k == key)).map_or(0, |at| at + 1);
    let mounted = window.min(reach).max(kept);
    let last_count = use_mut_ref(|| 0);
    let mounted_before = std::mem::replace(&mut *last_count.borrow_mut(), mounted);
    {
        let mut added = added.borrow_mut();
        added.follow(&row_keys, mounted, filtered.borrow().highest);
        added.keep_in_view(mounted > mounted_before, mounted >= window);
    }
    // The rows appear a slice per frame; rows added to a list already shown, at once.
    let revealed = use_reveal(mounted, FIRST_ROWS, ROW_SLICE, Growth::AtOnce);
    *mounted_keys.borrow_mut() = row_keys.get(..revealed).unwrap_or_default().to_vec();
    use_revealed(revealed >= mounted, props.on_revealed.clone());
    let pinned = added.borrow().positions(&row_keys);
    let following_view = use_mut_ref(Following::default);
    {
        let (row_keys, list, add_button, added) =
            (row_keys.clone(), list.clone(), add_button.clone(), Rc::clone(&added));
        use_effect(move || {
            removal.borrow_mut().settle(&row_keys, &list, "button.crash", &add_button);
            if let Some(key) = added.borrow_mut().scroll_to.take() {
                bring_into_view(&list, key);
                Following::start(&following_view, list, key);
            }
        });
    }
    let topics = TopicNames(Rc::clone(&scenario));
    let rows = (0..revealed).chain(pinned.iter().copied()).filter_map(|at| {
        let &(index, row) = shown.get(at)?;
        let refused = props.refused_at(index);
        Some(html! {
            <ConsumerRow key={row} {row} {index} consumer={ConsumerOf(Rc::clone(&scenario), index)} topics={topics.clone()}
                {refused} picker_open={*open_picker == Some(row)} edit={edit.clone()} refuse={refuse.clone()}
                remove={remove.clone()} open_picker={open_picker.setter()} />
        })
    });
    let hidden = row_keys.len().saturating_sub(window.max(mounted) + pinned.iter().filter(|&&at| at >= window).count());
    let more = {
        let (limit, needle) = (limit.clone(), needle.clone());
        Callback::from(move |_: MouseEvent| limit.set((needle.clone(), window + CONSUMER_ROWS)))
    };
    let add_consumer = {
        let (added, edit) = (Rc::clone(&added), edit.clone());
        Callback::from(move |_: MouseEvent| {
            added.borrow_mut().asked = true;
            edit.emit(Edit::AddConsumer);
        })
    };
    let total = scenario.consumers.len();
    let status = found(&needle, row_keys.len(), total, ("consumer", "consumers"));
    html! {
        <section class="editor consumers-editor" aria-labelledby="consumers-heading">
            <h2 id="consumers-heading">{ "Consumers and subscriptions" }</h2>
            if total > FIND_ABOVE || !needle.is_empty() {
                <SearchField label="Find a consumer by member.id or group.instance.id" placeholder="Find a consumer by id"
                    value={(*query).clone()} {status} on_change={on_query} />
            }
            <ol class="consumers" ref={list} aria-busy={(revealed < mounted).then_some("true")}>{ for rows }</ol>
            // Where the rows not yet mounted begin: near the viewport, it mounts the next ones.
            if revealed >= mounted && mounted < window {
                <div class="rows-ahead" ref={ahead} aria-hidden="true"></div>
            }
            if hidden > 0 {
                <p class="more-consumers">
                    <span class="hint">{ format!("{} of {} {}consumers shown.", row_keys.len() - hidden, row_keys.len(),
                        if needle.is_empty() { "" } else { "matching " }) }</span>
                    <button type="button" onclick={more}>{ format!("Show {} more", hidden.min(CONSUMER_ROWS)) }</button>
                </p>
            }
            <button type="button" ref={add_button} onclick={add_consumer}>{ "Add consumer" }</button>
        </section>
    }
}

/// A row brought into view, kept there until the page around it settles: rows mounted with it are
/// sized in the frames that follow (`content-visibility: auto`'s estimate replaced by their height)
/// and an answer's render can move the page too, each pushing it out of view again.
#[derive(Default)]
struct Following {
    /// The next frame's check.
    frame: Option<AnimationFrame>,
    /// Ends the following when the person scrolls, types or points: the page is theirs again.
    interrupted: Rc<Cell<bool>>,
    _listeners: Vec<gloo::events::EventListener>,
}

/// Frames in a row the followed row must keep its place for the page to count as settled.
const SETTLED_FRAMES: u32 = 5;
/// The most frames a row is followed (some two seconds).
const MOST_FOLLOWED_FRAMES: u32 = 120;

impl Following {
    fn start(slot: &Rc<RefCell<Following>>, list: NodeRef, key: RowKey) {
        let interrupted = Rc::new(Cell::new(false));
        let listeners = web_sys::window()
            .map(|window| {
                ["wheel", "touchstart", "pointerdown", "keydown"]
                    .into_iter()
                    .map(|event| {
                        let interrupted = Rc::clone(&interrupted);
                        gloo::events::EventListener::new(&window, event, move |_| interrupted.set(true))
                    })
                    .collect()
            })
            .unwrap_or_default();
        *slot.borrow_mut() = Following { frame: None, interrupted, _listeners: listeners };
        Following::next_frame(slot, list, key, (None, 0), MOST_FOLLOWED_FRAMES);
    }

    /// After the next frame's rendering: brings the row back into view if it left it, and goes on
    /// until its place (`last`: its top and for how many frames it has kept it) has settled.
    fn next_frame(slot: &Rc<RefCell<Following>>, list: NodeRef, key: RowKey, last: (Option<f64>, u32), left: u32) {
        let weak = Rc::downgrade(slot);
        let frame = request_animation_frame(move |_| {
            Timeout::new(0, move || {
                let Some(slot) = weak.upgrade() else { return };
                if slot.borrow().interrupted.get() {
                    *slot.borrow_mut() = Following::default();
                    return;
                }
                bring_into_view(&list, key);
                let top = row_of(&list, key).and_then(|row| edge(&row, "top"));
                let kept = if top.is_some() && top == last.0 { last.1 + 1 } else { 0 };
                if kept < SETTLED_FRAMES && left > 1 {
                    Following::next_frame(&slot, list, key, (top, kept), left - 1);
                } else {
                    *slot.borrow_mut() = Following::default();
                }
            })
            .forget();
        });
        slot.borrow_mut().frame = Some(frame);
    }
}

/// Scrolls the row keyed `key` into view if it is not, below the sticky header (which
/// `scrollIntoView` would leave it under).
fn bring_into_view(list: &NodeRef, key: RowKey) {
    /// Space left between the row and the header or the window's bottom, in pixels.
    const MARGIN: f64 = 8.0;
    let Some(window) = web_sys::window() else { return };
    let Some(row) = row_of(list, key) else { return };
    let header = window.document().and_then(|d| d.query_selector("header.top").ok().flatten());
    let top_edge = header.as_ref().and_then(|h| edge(h, "bottom")).unwrap_or(0.0) + MARGIN;
    let bottom_edge = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0) - MARGIN;
    let (Some(top), Some(bottom)) = (edge(&row, "top"), edge(&row, "bottom")) else { return };
    let by = if top < top_edge {
        top - top_edge
    } else if bottom > bottom_edge {
        (bottom - bottom_edge).min(top - top_edge)
    } else {
        return;
    };
    window.scroll_by_with_x_and_y(0.0, by);
}

/// The consumers list's row keyed `key`, if it is mounted.
fn row_of(list: &NodeRef, key: RowKey) -> Option<web_sys::Element> {
    list.cast::<web_sys::Element>()?.query_selector(&format!("[data-row=\"{key}\"]")).ok()?
}

/// One side of `element`'s box in the window's coordinates (`getBoundingClientRect` through
/// `Reflect`: its `DomRect` is not among the page's web-sys features).
fn edge(element: &web_sys::Element, side: &str) -> Option<f64> {
    use web_sys::js_sys::{Function, Reflect};
    let measure = Reflect::get(element, &"getBoundingClientRect".into()).ok()?.dyn_into::<Function>().ok()?;
    Reflect::get(&measure.call0(element).ok()?, &side.into()).ok()?.as_f64()
}

#[derive(Properties, PartialEq)]
struct ConsumerRowProps {
    row: RowKey,
    index: usize,
    consumer: ConsumerOf,
    topics: TopicNames,
    refused: Refused,
    picker_open: bool,
    edit: Callback<Edit>,
    refuse: Callback<(Field, String)>,
    remove: Callback<usize>,
    open_picker: UseStateSetter<Option<RowKey>>,
}

#[function_component]
fn ConsumerRow(props: &ConsumerRowProps) -> Html {
    rendered("ConsumerRow");
    let i = props.index;
    let rename = use_edit(i, &props.edit, |consumer, id| Edit::RenameConsumer { consumer, id });
    let instance = use_edit(i, &props.edit, |consumer, t| Edit::SetInstanceId { consumer, instance_id: optional(t) });
    let rack = use_edit(i, &props.edit, |consumer, t| Edit::SetRack { consumer, rack: optional(t) });
    let strategies =
        use_edit(i, &props.edit, |consumer, t: String| Edit::SetStrategies { consumer, strategies: split_list(&t) });
    let patterns =
        use_edit(i, &props.edit, |consumer, t: String| Edit::SetPatterns { consumer, patterns: split_list(&t) });
    let toggle = use_edit(i, &props.edit, |consumer, topic| Edit::ToggleSubscription { consumer, topic });
    let subscribe =
        use_edit(i, &props.edit, |consumer, (topics, subscribed)| Edit::Subscribe { consumer, topics, subscribed });
    let duplicate = use_edit(i, &props.edit, |consumer, _: MouseEvent| Edit::DuplicateConsumer { consumer });
    let crash = use_callback((i, props.remove.clone()), |_: MouseEvent, (i, remove)| remove.emit(*i));
    let picker_button = use_node_ref();
    let flip_picker =
        use_callback((props.row, props.picker_open, props.open_picker.clone()), |_: MouseEvent, (row, open, set)| {
            set.set((!open).then_some(*row))
        });
    let close_picker = {
        let (set, button) = (props.open_picker.clone(), picker_button.clone());
        use_callback((), move |(), ()| {
            set.set(None);
            if let Some(button) = button.cast::<HtmlElement>() {
                let _ = button.focus();
            }
        })
    };
    let matches =
        use_pattern_matches(props.consumer.get().map(|c| c.patterns.clone()).unwrap_or_default(), &props.topics);
    let Some(consumer) = props.consumer.get() else { return html! {} };
    let id = consumer.id.clone();
    let error = |field| error_of(&props.refused, field);
    let refuse = props.refuse.clone();
    let subscribed: HashSet<&str> = consumer.topics.iter().map(String::as_str).collect();
    let inline = props.topics.len() <= INLINE_TOPICS;
    let subscriptions = if inline {
        html! {
            <span class="subscriptions" role="group" aria-label={format!("Topics {id} subscribes to")}>
                { for props.topics.iter().enumerate().map(|(t, topic)|
                    subscription_box(&id, t, topic, subscribed.contains(topic), matched_by(&matches, t), &toggle)) }
            </span>
        }
    } else {
        // The effective subscription: explicit topics and those only a pattern matches.
        let by_pattern = props
            .topics
            .iter()
            .enumerate()
            .filter(|&(t, topic)| !subscribed.contains(topic) && matched_by(&matches, t).is_some())
            .count();
        let count = props.topics.iter().filter(|t| subscribed.contains(t)).count() + by_pattern;
        let total = props.topics.len();
        let label = match by_pattern {
            0 => format!("Subscriptions of {id}: {count} of {total} topics"),
            _ => format!("Subscriptions of {id}: {count} of {total} topics, {by_pattern} matched by a pattern"),
        };
        html! {
            <span class="subscriptions">
                <button type="button" ref={picker_button} class="picker-toggle" onclick={flip_picker} aria-expanded={props.picker_open.to_string()}
                    aria-label={label}>
                    { format!("{count} of {total} topics") }
                    if by_pattern > 0 {
                        <span class="by-pattern">{ format!(" ({by_pattern} by pattern)") }</span>
                    }
                    <span aria-hidden="true">{ if props.picker_open { " ▴" } else { " ▾" } }</span>
                </button>
            </span>
        }
    };
    html! {
        <li class="consumer" data-consumer={id.clone()} data-row={props.row.to_string()}>
            <div class="consumer-main">
                <TextField label={format!("member.id of consumer {}", i + 1)} compact=true value={id.clone()} field={Field::ConsumerId(i)}
                    error={error(Field::ConsumerId(i))} on_input={rename} on_refuse={refuse.clone()} />
                { subscriptions }
                <span class="actions">
                    <button type="button" onclick={duplicate} aria-label={format!("Duplicate {id}")}>{ "Duplicate" }</button>
                    <button type="button" class="danger crash" onclick={crash} aria-label={format!("{id} crashes or leaves")}>{ "Crash" }</button>
                </span>
            </div>
            if props.picker_open && !inline {
                <TopicPicker id={id.clone()} consumer={props.consumer.clone()} topics={props.topics.clone()} {matches} {toggle} {subscribe}
                    on_close={close_picker} />
            }
            <div class="consumer-details">
                <TextField label={format!("group.instance.id of {id}")} caption="group.instance.id" compact=true placeholder="dynamic"
                    value={consumer.instance_id.clone().unwrap_or_default()} field={Field::InstanceId(i)} error={error(Field::InstanceId(i))}
                    on_input={instance} on_refuse={refuse.clone()} />
                <TextField label={format!("client.rack of {id}")} caption="client.rack" compact=true placeholder="none"
                    value={consumer.rack.clone().unwrap_or_default()} field={Field::Rack(i)} error={error(Field::Rack(i))}
                    on_input={rack} on_refuse={refuse.clone()} />
                <TextField label={format!("partition.assignment.strategy of {id}")} caption="partition.assignment.strategy" compact=true
                    value={consumer.strategies.join(", ")} field={Field::Strategies(i)} error={error(Field::Strategies(i))}
                    on_input={strategies} on_refuse={refuse.clone()} />
                <TextField label={format!("Pattern subscriptions of {id}")} caption="patterns" compact=true placeholder="e.g. test-.*"
                    value={consumer.patterns.join(", ")} field={Field::Patterns(i)} error={error(Field::Patterns(i))}
                    on_input={patterns} on_refuse={refuse} />
            </div>
        </li>
    }
}

#[derive(Properties, PartialEq)]
struct TopicPickerProps {
    id: AttrValue,
    consumer: ConsumerOf,
    topics: TopicNames,
    matches: PatternMatches,
    toggle: Callback<usize>,
    subscribe: Callback<(Vec<usize>, bool)>,
    on_close: Callback<()>,
}

/// One consumer's topics, for groups with too many for a checkbox each in every row: filter them,
/// tick them one by one, or all (or none) of those shown in one edit.
#[function_component]
fn TopicPicker(props: &TopicPickerProps) -> Html {
    rendered("TopicPicker");
    let filter = use_state(String::new);
    let search = use_node_ref();
    {
        // Opened from its button: the filter takes the focus.
        let search = search.clone();
        use_effect_with((), move |_| {
            if let Some(input) = search.cast::<HtmlElement>() {
                let _ = input.focus();
            }
        });
    }
    let Some(consumer) = props.consumer.get() else { return html! {} };
    let subscribed: HashSet<&str> = consumer.topics.iter().map(String::as_str).collect();
    let needle = Needle::new(&filter);
    let shown: Vec<(usize, &str)> = props.topics.iter().enumerate().filter(|(_, name)| needle.finds(name)).collect();
    let positions: Vec<usize> = shown.iter().map(|(t, _)| *t).collect();
    let all = {
        let (subscribe, positions) = (props.subscribe.clone(), positions.clone());
        Callback::from(move |_: MouseEvent| subscribe.emit((positions.clone(), true)))
    };
    let none = {
        let subscribe = props.subscribe.clone();
        Callback::from(move |_: MouseEvent| subscribe.emit((positions.clone(), false)))
    };
    let oninput = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| filter.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let onkeydown = {
        let on_close = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                // Ours: a dialog open elsewhere stays open.
                e.prevent_default();
                on_close.emit(());
            }
        })
    };
    let done = props.on_close.reform(|_: MouseEvent| ());
    let id = &props.id;
    let matches = &props.matches;
    let chosen =
        shown.iter().filter(|&&(t, name)| subscribed.contains(name) || matched_by(matches, t).is_some()).count();
    html! {
        <div class="picker" role="group" aria-label={format!("Topics {id} subscribes to")} {onkeydown}>
            <div class="picker-bar">
                <input ref={search} type="search" placeholder="Filter topics" aria-label={format!("Filter the topics of {id}")}
                    value={(*filter).clone()} {oninput} />
                <button type="button" onclick={all} aria-label={format!("Subscribe {id} to every topic shown")}>{ "All shown" }</button>
                <button type="button" onclick={none} aria-label={format!("Unsubscribe {id} from every topic shown")}>{ "None shown" }</button>
                <span class="hint">{ format!("{chosen} of {} shown", shown.len()) }</span>
                <button type="button" class="done" onclick={done}>{ "Done" }</button>
            </div>
            <div class="picker-list">
                { for shown.iter().take(PICKER_LIST).map(|&(t, topic)|
                    subscription_box(id, t, topic, subscribed.contains(topic), matched_by(matches, t), &props.toggle)) }
            </div>
            if shown.len() > PICKER_LIST {
                <p class="hint">{ format!("{} more: filter to find them.", shown.len() - PICKER_LIST) }</p>
            }
        </div>
    }
}

/// One topic's checkbox in a consumer's subscriptions (its row's or its picker's). An explicit
/// subscription toggles; a topic only a pattern matches is shown subscribed, as the assignors see
/// it, and is not a checkbox to untick (the pattern decides: edit it in the row's patterns field).
fn subscription_box(
    id: &str,
    t: usize,
    topic: &str,
    explicit: bool,
    pattern: Option<&AttrValue>,
    toggle: &Callback<usize>,
) -> Html {
    let only_matched = !explicit && pattern.is_some();
    let note = pattern.map(|pattern| match explicit {
        true => format!("also matched by {pattern}"),
        false => format!("matched by {pattern}"),
    });
    let label = match (&note, only_matched) {
        (Some(note), true) => format!("{id} subscribes to {topic}: {note}"),
        _ => format!("{id} subscribes to {topic}"),
    };
    html! {
        <label class={classes!("sub", topic_class(t), only_matched.then_some("matched"))} title={note.clone()}>
            <input type="checkbox" checked={explicit || only_matched} disabled={only_matched}
                onchange={toggle.reform(move |_| t)} aria-label={label} />
            <span class="swatch" aria-hidden="true"></span><span class="topic-name">{ topic.to_string() }</span>
            if let Some(note) = note {
                <span class="matched-by">{ note }</span>
            }
        </label>
    }
}

/// The rebalance triggers of the seed articles as one-click events.
#[function_component]
pub fn EventsBar() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let topic_choice = use_state(|| 0usize);
    let scenario = store.scenario.clone();
    let chosen = Some(*topic_choice).filter(|&i| i < scenario.topics.len()).unwrap_or(0);
    let pattern = scenario.consumers.iter().any(|c| !c.patterns.is_empty());
    let pick_topic = {
        let topic_choice = topic_choice.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            topic_choice.set(select.selected_index().max(0) as usize);
        })
    };
    html! {
        <section class="events" aria-labelledby="events-heading">
            <h2 id="events-heading">{ "Trigger a rebalance" }</h2>
            <button type="button" onclick={on(&store, Edit::Join)}>{ "A consumer joins" }</button>
            <span class="group">
                <label class="sr-only" for="grow-topic">{ "Topic to grow" }</label>
                <select id="grow-topic" onchange={pick_topic}>
                    { for scenario.topics.iter().enumerate().map(|(i, t)| html! { <option selected={i == *topic_choice}>{ t.name.clone() }</option> }) }
                </select>
                if let Some(t) = scenario.topics.get(chosen) {
                    <button type="button" onclick={on(&store, Edit::GrowTopic { topic: chosen })}>{ format!("Add partitions to {}", t.name) }</button>
                }
            </span>
            <button type="button" onclick={on(&store, Edit::CreateTopic)}>{ if pattern { "Create a topic matching the pattern" } else { "Create a topic" } }</button>
            <span class="hint">{ "Crash a consumer from its row; subscribe from its row too." }</span>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use scenario::ConsumerSpec;

    use super::{Added, Filtered, Removal};
    use crate::ui::find::Needle;
    use crate::ui::keys::RowKeys;

    /// The consumers `names` (an `id@instance` has a `group.instance.id`) and their row keys.
    fn group(keys: &mut RowKeys, names: &str) -> (Vec<ConsumerSpec>, Vec<u64>) {
        let consumers: Vec<ConsumerSpec> = names
            .split_whitespace()
            .map(|name| {
                let (id, instance) = name.split_once('@').map_or((name, None), |(id, i)| (id, Some(i.to_string())));
                ConsumerSpec { instance_id: instance, ..ConsumerSpec::new(id, &[]) }
            })
            .collect();
        let keys = keys.follow(consumers.iter().map(|c| c.id.as_str()));
        (consumers, keys)
    }

    /// The ids a filter shows of `names` after `typed` (and whether it is a new filter).
    fn shown(filtered: &mut Filtered, keys: &mut RowKeys, names: &str, typed: &str) -> (Vec<String>, bool) {
        let (consumers, keys) = group(keys, names);
        let (shown, changed) = filtered.follow(Needle::new(typed), &consumers, &keys);
        for &(at, key) in &shown {
            assert_eq!(keys[at], key, "each row shown with its own key");
        }
        (shown.iter().map(|&(at, _)| consumers[at].id.clone()).collect(), changed)
    }

    #[test]
    fn a_filter_shows_the_consumers_whose_id_or_instance_id_it_finds() {
        let (mut filtered, mut keys) = (Filtered::default(), RowKeys::default());
        let all = "consumer-1 consumer-12 Consumer-123@static-12 other@a other-2@x12";
        assert_eq!(shown(&mut filtered, &mut keys, all, "").0.len(), 5, "nothing typed: every consumer");
        assert_eq!(
            shown(&mut filtered, &mut keys, all, " SUMER-12"),
            (vec!["consumer-12".into(), "Consumer-123".into()], true)
        );
        // The group.instance.id too.
        assert_eq!(shown(&mut filtered, &mut keys, all, "12").0, ["consumer-12", "Consumer-123", "other-2"]);
        assert_eq!(shown(&mut filtered, &mut keys, all, "static").0, ["Consumer-123"]);
        assert_eq!(shown(&mut filtered, &mut keys, all, "nobody"), (vec![], true));
        assert_eq!(shown(&mut filtered, &mut keys, all, "nobody "), (vec![], false), "the same filter");
    }

    #[test]
    fn a_consumer_renamed_out_of_the_filter_stays_until_the_filter_changes() {
        let (mut filtered, mut keys) = (Filtered::default(), RowKeys::default());
        shown(&mut filtered, &mut keys, "c-1 c-12 c-2", "");
        assert_eq!(shown(&mut filtered, &mut keys, "c-1 c-12 c-2", "c-1").0, ["c-1", "c-12"]);
        // c-12 renamed letter by letter to x: it keeps its row, shown.
        assert_eq!(shown(&mut filtered, &mut keys, "c-1 c- c-2", "c-1"), (vec!["c-1".into(), "c-".into()], false));
        assert_eq!(shown(&mut filtered, &mut keys, "c-1 x c-2", "c-1").0, ["c-1", "x"]);
        // Another consumer renamed into it (an undo elsewhere) is found as well.
        assert_eq!(shown(&mut filtered, &mut keys, "c-1 x c-10", "c-1").0, ["c-1", "x", "c-10"]);
        // The filter changes: only what it finds.
        assert_eq!(shown(&mut filtered, &mut keys, "c-1 x c-10", "c-10").0, ["c-10"]);
        assert_eq!(shown(&mut filtered, &mut keys, "c-1 x c-10", "c-1").0, ["c-1", "c-10"]);
    }

    #[test]
    fn consumers_added_under_a_filter_are_shown_but_not_a_whole_new_group() {
        let (mut filtered, mut keys) = (Filtered::default(), RowKeys::default());
        shown(&mut filtered, &mut keys, "a-1 b-1 a-2", "a-");
        // Add consumer (a new id that the filter does not find), Duplicate (after its original).
        assert_eq!(shown(&mut filtered, &mut keys, "a-1 b-1 a-2 C0", "a-").0, ["a-1", "a-2", "C0"]);
        assert_eq!(shown(&mut filtered, &mut keys, "a-1 b-1 b-1-0 a-2 C0", "a-").0, ["a-1", "b-1-0", "a-2", "C0"]);
        // A crash: the others stay.
        assert_eq!(shown(&mut filtered, &mut keys, "a-1 b-1 b-1-0 C0", "a-").0, ["a-1", "b-1-0", "C0"]);
        // A new group (a link, a preset) is filtered, however many of its consumers are new.
        let loaded = (0..20).map(|i| format!("n-{i}")).collect::<Vec<_>>().join(" ");
        assert_eq!(shown(&mut filtered, &mut keys, &format!("a-9 {loaded}"), "a-").0, ["a-9"]);
    }

    #[test]
    fn the_focus_goes_to_the_next_row_shown_or_else_the_one_before() {
        let focus = |shown: &[(usize, u64)], index| {
            let mut removal = Removal::default();
            removal.plan(shown, index);
            removal.pending
        };
        // A filter shows the consumers at 1, 4 and 7 of the list.
        let shown = [(1, 11), (4, 14), (7, 17)];
        assert_eq!(focus(&shown, 1), Some((11, Some(14))));
        assert_eq!(focus(&shown, 4), Some((14, Some(17))));
        assert_eq!(focus(&shown, 7), Some((17, Some(14))), "the last row: the one before");
        assert_eq!(focus(&shown[..1], 1), Some((11, None)), "the only row: the add button");
        assert_eq!(focus(&shown, 5), None, "a row not shown plans nothing");
    }

    /// One render of the consumers list: rows keyed `0..rows`, the first `mounted` of them mounted,
    /// `window` the rows it may show; returns the row it brings into view after the render.
    fn render(added: &mut Added, rows: u64, mounted: usize, window: usize, mounted_before: usize) -> Option<u64> {
        let keys: Vec<u64> = (0..rows).collect();
        added.follow(&keys, mounted, rows.saturating_sub(1));
        added.keep_in_view(mounted > mounted_before, mounted >= window);
        added.scroll_to.take()
    }

    #[test]
    fn a_row_added_beyond_the_rows_mounted_is_followed_until_it_is_in_its_place() {
        let mut added = Added::default();
        assert_eq!(render(&mut added, 60, 10, 60, 0), None);
        // Add consumer: row 60, beyond the 10 mounted, pinned and brought into view.
        assert_eq!(render(&mut added, 61, 10, 61, 10), Some(60));
        assert_eq!(added.positions(&(0..61).collect::<Vec<_>>()), [60]);
        // Each slice mounted before it brings it back into view; a render that mounts none does not.
        assert_eq!(render(&mut added, 61, 16, 61, 10), Some(60));
        assert_eq!(render(&mut added, 61, 16, 61, 16), None);
        assert_eq!(render(&mut added, 61, 58, 61, 16), Some(60));
        // The slice that puts it in its place brings it into view a last time.
        assert_eq!(render(&mut added, 61, 61, 61, 58), Some(60));
        assert!(added.positions(&(0..61).collect::<Vec<_>>()).is_empty());
        assert_eq!(render(&mut added, 61, 61, 61, 61), None);
    }

    #[test]
    fn a_row_added_by_the_button_to_a_list_all_mounted_is_brought_into_view_once() {
        let mut added = Added::default();
        render(&mut added, 60, 60, 60, 0);
        // Add consumer with every row mounted: row 60 lands in its place, not pinned, and is
        // brought into view once.
        added.asked = true;
        assert_eq!(render(&mut added, 61, 61, 61, 60), Some(60));
        assert!(added.positions(&(0..61).collect::<Vec<_>>()).is_empty());
        assert_eq!(render(&mut added, 61, 61, 61, 61), None);
        // A consumer that joins from the events bar lands there too, and the page stays.
        assert_eq!(render(&mut added, 62, 62, 62, 61), None);
    }

    #[test]
    fn a_row_added_beyond_the_window_is_not_followed_once_the_window_is_mounted() {
        let mut added = Added::default();
        render(&mut added, 450, 200, 200, 0);
        // A consumer joins a group of 450 whose 200 rows are mounted: shown after them, in view, once.
        assert_eq!(render(&mut added, 451, 200, 200, 200), Some(450));
        // "Show 200 more": the rows mounted as the page scrolls do not pull the page back to it.
        assert_eq!(render(&mut added, 451, 206, 400, 200), None);
        assert_eq!(added.positions(&(0..451).collect::<Vec<_>>()), [450]);
    }
}
