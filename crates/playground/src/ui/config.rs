//! The Configuration section: for the strategy the user picks, each client's exact settings with a
//! copy button and a link to its documentation, and the safe migration from the consumers' current
//! lists, step by step (`scenario::config`, the same as `kap config`).

use std::rc::Rc;

use assignor::Strategy;
use scenario::config::{self, ServerAssignor, Target};
use scenario::Scenario;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::browser;

const TARGETS: [(&str, Target); 6] = [
    ("cooperative-sticky", Target::Classic(Strategy::CooperativeSticky)),
    ("sticky", Target::Classic(Strategy::Sticky)),
    ("range", Target::Classic(Strategy::Range)),
    ("roundrobin", Target::Classic(Strategy::RoundRobin)),
    ("uniform (consumer protocol)", Target::Consumer(ServerAssignor::Uniform)),
    ("range (consumer protocol)", Target::Consumer(ServerAssignor::Range)),
];

/// The consumers of the scenario on screen as the migration reads them, compared by their ids and
/// strategy lists only: a new scenario whose consumers run the same lists (a partition count
/// typed, an answer painted) neither renders the section again nor works the steps out again.
#[derive(Clone)]
pub struct Consumers(pub Rc<Scenario>);

impl Consumers {
    fn lists(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.0.consumers.iter().map(|c| (c.id.as_str(), c.strategies.as_slice()))
    }
}

impl PartialEq for Consumers {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.lists().eq(other.lists())
    }
}

#[derive(Properties, PartialEq)]
pub struct ConfigProps {
    pub consumers: Consumers,
}

#[function_component]
pub fn ConfigSection(props: &ConfigProps) -> Html {
    let chosen = use_state(|| 0usize);
    let target = TARGETS.get(*chosen).map_or(Target::Classic(Strategy::CooperativeSticky), |(_, t)| *t);
    let onchange = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            chosen.set(usize::try_from(select.selected_index()).unwrap_or(0));
        })
    };
    // Worked out again only when the consumers' lists or the target change: at 2,000 consumers the
    // steps are not free, and most edits change neither.
    let migration = use_memo((props.consumers.clone(), target), |(consumers, target)| {
        let target = *target;
        let lists: Vec<(String, Vec<Strategy>)> = consumers
            .lists()
            .map(|(id, names)| (id.to_string(), names.iter().filter_map(|n| n.parse().ok()).collect()))
            .collect();
        match target {
            Target::Classic(strategy) if !lists.is_empty() => {
                Some(config::migration(&lists, strategy, config::Naming::Few))
            }
            _ => None,
        }
    });
    html! {
        <section class="config" aria-label="Configuration">
            <h2>{ "Configuration" }</h2>
            <label class="inline">{ "Settings for " }
                <select {onchange}>
                    { for TARGETS.iter().enumerate().map(|(i, (name, _))| html! { <option selected={i == *chosen}>{ *name }</option> }) }
                </select>
            </label>
            <ClientList key={target.to_string()} {target} />
            if let Some(migration) = (*migration).as_ref().filter(|m| m.steps.len() > 1) {
                <h3>{ "Getting there safely" }</h3>
                <ol class="migration">
                    { for migration.steps.iter().map(|step| html! {
                        <li><strong>{ step.title.clone() }</strong>{ ": " }{ step.outcome.clone() }{ "." }</li>
                    }) }
                </ol>
                if let Some(note) = &migration.librdkafka {
                    <p class="note">{ note.clone() }</p>
                }
                if let Some(trap) = &migration.trap {
                    <p class="trap" role="note"><strong>{ "Do not: " }{ trap.title.trim_start_matches("The trap, ").to_string() }</strong>{ ": " }{ trap.outcome.clone() }{ "." }</p>
                }
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ClientListProps {
    pub target: Target,
    /// Said after "Copy the … settings" on each copy button, where two lists are on the page.
    #[prop_or_default]
    pub context: AttrValue,
}

/// Each client's settings for `target` with a link to its documentation and a copy button
/// (`scenario::config::settings`, as `kap config` prints them). Keyed by target, so a copy's
/// "Copied" goes with the list it was said of.
#[function_component]
pub fn ClientList(props: &ClientListProps) -> Html {
    let copied = use_state(|| None::<(usize, bool)>);
    let settings = config::settings(props.target);
    html! {
        <ul class="clients">
            { for settings.iter().enumerate().map(|(i, s)| {
                let text = s.lines.join("\n");
                let copy = {
                    let (copied, text) = (copied.clone(), text.clone());
                    Callback::from(move |_| copied.set(Some((i, browser::copy_text(&text)))))
                };
                let label = match *copied {
                    Some((j, true)) if j == i => "Copied",
                    Some((j, false)) if j == i => "Select and copy",
                    _ => "Copy",
                };
                html! {
                    <li data-client={s.client.name()}>
                        <h3><a href={s.docs} target="_blank" rel="noopener">{ s.client.name() }</a></h3>
                        if !s.lines.is_empty() {
                            <pre><code>{ text.clone() }</code></pre>
                            <button type="button" onclick={copy} aria-label={format!("Copy the {} settings{}", s.client.name(), props.context)}>{ label }</button>
                        }
                        if let Some(note) = &s.note {
                            <p class="note">{ note.clone() }</p>
                        }
                    </li>
                }
            }) }
        </ul>
    }
}
