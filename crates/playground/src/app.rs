//! The page: the demo group's settings and one panel per strategy.

use assignor::Strategy;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::demo::{self, MAX_T0_PARTITIONS};
use crate::panel::Panel;

#[function_component]
pub fn App() -> Html {
    let t0_partitions = use_state(|| 3u32);
    let group = demo::group(*t0_partitions);

    let oninput = {
        let t0_partitions = t0_partitions.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(n) = demo::parse_partitions(&input.value()) {
                t0_partitions.set(n);
            }
        })
    };

    html! {
        <main>
            <h1>{ "Kafka Assignor Playground" }</h1>
            <p class="group">
                { "Consumers C0 and C1 subscribe to t0 and t1 (3 partitions). " }
                <label>
                    { "Partitions of t0: " }
                    <input id="t0-partitions" type="number" min="0" max={MAX_T0_PARTITIONS.to_string()}
                        value={t0_partitions.to_string()} {oninput} />
                </label>
            </p>
            <div class="panels">
                { for Strategy::ALL.into_iter().map(|strategy| html! {
                    <Panel key={strategy.name()} {strategy} outcome={demo::outcome(strategy, &group)} />
                }) }
            </div>
        </main>
    }
}
