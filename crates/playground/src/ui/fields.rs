//! Inputs that keep what the person typed, dispatch each edit as they type, and show why an edit
//! was refused right beside the field.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::state::{Action, EditError, Field};
use crate::ui::Store;

#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    pub label: AttrValue,
    /// The committed value.
    pub value: AttrValue,
    pub field: Field,
    pub on_input: Callback<String>,
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// `text` or `number`.
    #[prop_or(AttrValue::Static("text"))]
    pub kind: AttrValue,
    /// Hide the label visually (it stays for screen readers).
    #[prop_or_default]
    pub compact: bool,
}

#[function_component]
pub fn TextField(props: &TextFieldProps) -> Html {
    let store = use_context::<Store>();
    let draft = use_state(|| props.value.to_string());
    {
        // Undo, a preset or a link changed the value: show it.
        let draft = draft.clone();
        use_effect_with(props.value.clone(), move |value| draft.set(value.to_string()));
    }
    let error = store.as_ref().and_then(|s| s.refusal(props.field));
    {
        // Once the refusal is gone (another edit was made), show the committed value again.
        let draft = draft.clone();
        use_effect_with((props.value.clone(), error.is_some()), move |(value, refused)| {
            if !refused {
                draft.set(value.to_string());
            }
        });
    }
    let oninput = {
        let (draft, on_input) = (draft.clone(), props.on_input.clone());
        Callback::from(move |e: InputEvent| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            draft.set(value.clone());
            on_input.emit(value);
        })
    };
    html! {
        <label class={classes!("field", props.compact.then_some("compact"))}>
            <span class="label">{ props.label.clone() }</span>
            <input type={props.kind.clone()} value={(*draft).clone()} {oninput} placeholder={props.placeholder.clone()}
                aria-invalid={error.is_some().then_some("true")} />
            if let Some(message) = error {
                <span class="error" role="alert">{ message }</span>
            }
        </label>
    }
}

#[derive(Properties, PartialEq)]
pub struct CountFieldProps {
    pub label: AttrValue,
    pub value: u32,
    pub field: Field,
    pub on_set: Callback<u32>,
}

/// A partition count: typed (each keystroke live, one rebalance) or stepped with − and +.
#[function_component]
pub fn CountField(props: &CountFieldProps) -> Html {
    let store = use_context::<Store>();
    let on_input = {
        let (on_set, store, field) = (props.on_set.clone(), store.clone(), props.field);
        Callback::from(move |text: String| match text.trim().parse::<u32>() {
            Ok(n) => on_set.emit(n),
            Err(_) if text.trim().is_empty() => {}
            Err(_) => {
                if let Some(store) = &store {
                    store.dispatch(Action::Refuse { field, error: EditError::NotACount(text) });
                }
            }
        })
    };
    let step = |delta: i64| {
        let (on_set, value) = (props.on_set.clone(), props.value);
        Callback::from(move |_| {
            let next = i64::from(value) + delta;
            if let Ok(n) = u32::try_from(next) {
                on_set.emit(n);
            }
        })
    };
    html! {
        <span class="count-field">
            <TextField label={props.label.clone()} value={props.value.to_string()} field={props.field} {on_input} kind="number" compact=true />
            <button type="button" class="step" aria-label={format!("{} minus one", props.label)} onclick={step(-1)}>{ "−" }</button>
            <button type="button" class="step" aria-label={format!("{} plus one", props.label)} onclick={step(1)}>{ "+" }</button>
        </span>
    }
}
