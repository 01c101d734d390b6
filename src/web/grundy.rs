//! The Grundy plot page: `g(n)` over a window of sizes for a problem whose
//! one pile has a Grundy sequence, drawn as an SVG bar chart on the server
//! from the solver core's own functions ([`grundy_plot`]).
//!
//! The form is a GET (it changes nothing, so it needs no CSRF token). Every
//! query value is parsed here and checked by [`GrundyPlot::sequence`]; a bad
//! one is the 400 page with the form still filled in and the message naming
//! the parameter and its bound. The SVG has no `style` attribute and no
//! script: its look comes from classes in `style.css`, its geometry from
//! presentation attributes, and its text is escaped by maud like any page's.
//! Any signed-in visitor may see a plot: it shows no testcase or output.

use std::collections::BTreeMap;

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use maud::{Markup, html};

use super::{PageError, PagePath, page, visitor::Visitor};
use crate::{
    domain::ProblemId,
    http::AppState,
    solver::grundy_plot::{self, GrundyPlot, MAX_COUNT},
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/problems/{id}/grundy", get(show))
}

/// Sizes shown when the query chooses none.
const DEFAULT_COUNT: u64 = 120;

/// The SVG's size in user units, and the margins around the plot area
/// (left for the value labels, bottom for the size labels).
const WIDTH: f64 = 880.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 46.0;

/// What the form sends back: every field as typed, to refill the form.
#[derive(Debug, Clone)]
struct PlotForm {
    /// The game's parameters, in the plot's order.
    parameters: Vec<String>,
    from: String,
    count: String,
}

impl PlotForm {
    fn defaults(plot: &GrundyPlot) -> PlotForm {
        PlotForm {
            parameters: plot
                .parameters
                .iter()
                .map(|p| p.default.to_string())
                .collect(),
            from: plot.default_from.to_string(),
            count: DEFAULT_COUNT.to_string(),
        }
    }

    /// The form's fields from the query, defaults for the ones it leaves
    /// out; a field no form has is refused.
    fn from_query(
        plot: &GrundyPlot,
        query: &BTreeMap<String, String>,
    ) -> Result<PlotForm, PageError> {
        let mut form = PlotForm::defaults(plot);
        for (key, value) in query {
            let slot = match key.as_str() {
                "from" => &mut form.from,
                "count" => &mut form.count,
                other => {
                    let index = plot
                        .parameters
                        .iter()
                        .position(|p| p.name.eq_ignore_ascii_case(other))
                        .ok_or_else(|| {
                            PageError::BadForm(format!(
                                "unknown parameter `{other}` (this plot takes {})",
                                field_names(plot)
                            ))
                        })?;
                    &mut form.parameters[index]
                }
            };
            *slot = value.trim().to_string();
        }
        Ok(form)
    }
}

/// The names of a plot's query fields, for messages.
fn field_names(plot: &GrundyPlot) -> String {
    let mut names: Vec<String> = plot
        .parameters
        .iter()
        .map(|p| format!("`{}`", p.name.to_ascii_lowercase()))
        .collect();
    names.extend(["`from`".to_string(), "`count`".to_string()]);
    names.join(", ")
}

/// A whole number from a form field, or a message naming the field.
fn whole_number(name: &str, text: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|_| {
        if text.is_empty() {
            format!("{name} is empty; give a whole number")
        } else {
            format!("{name} must be a whole number, not `{text}`")
        }
    })
}

/// The sequence the form asks for, or the message saying what is wrong.
fn sequence(plot: &GrundyPlot, form: &PlotForm) -> Result<Vec<u64>, String> {
    let parameters = plot
        .parameters
        .iter()
        .zip(&form.parameters)
        .map(|(parameter, text)| whole_number(parameter.name, text))
        .collect::<Result<Vec<u64>, String>>()?;
    let from = whole_number("from", &form.from)?;
    let count = whole_number("count", &form.count)?;
    plot.sequence(&parameters, from, count)
        .map_err(|e| e.to_string())
}

/// `GET /problems/{id}/grundy`: the plot with its form; 400 with the form
/// and the message for a bad value; 404 for a problem without a plot.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    query: Result<Query<BTreeMap<String, String>>, QueryRejection>,
) -> Result<Response, PageError> {
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let problem = state.app.problem(&visitor.caller, &id).await?;
    state.app.check_practice_open(&visitor.caller, &id).await?;
    let plot = grundy_plot::find(id.as_str())
        .ok_or_else(|| PageError::NotFound(format!("problem `{id}` has no Grundy plot")))?;
    let form = PlotForm::from_query(plot, &query)?;
    // At most MAX_COUNT values, each O(1) or one table lookup; the
    // constrained-nim table is built from at most 2·10^5 moves.
    let asked = form.clone();
    let result = tokio::task::spawn_blocking(move || sequence(plot, &asked))
        .await
        .map_err(|e| PageError::Api(crate::http::ApiError::Internal(e.to_string())))?;
    let from = form.from.parse::<u64>().unwrap_or(plot.default_from);
    let body = html! {
        p.crumbs {
            a href="/problems" { "Problems" } " › "
            a href={ "/problems/" (id) } { (problem.title) } " › Grundy plot"
        }
        h1 { "Grundy plot: " (problem.title) }
        p.muted #plot-description { (plot.description) "." }
        form.card.plot-form #plot-form method="get" action={ "/problems/" (id) "/grundy" } {
            @for (parameter, value) in plot.parameters.iter().zip(&form.parameters) {
                @let field = parameter.name.to_ascii_lowercase();
                div.field {
                    label for=(field) { (parameter.name) " " span.muted { "(" (parameter.meaning) ")" } }
                    input type="text" inputmode="numeric" id=(field) name=(field) value=(value);
                }
            }
            div.field {
                label for="from" { "First n" }
                input type="text" inputmode="numeric" id="from" name="from" value=(form.from);
            }
            div.field {
                label for="count" { "How many (≤ " (MAX_COUNT) ")" }
                input type="text" inputmode="numeric" id="count" name="count" value=(form.count);
            }
            button type="submit" id="plot-button" { "Plot" }
        }
        @match &result {
            Ok(values) => (chart(from, values)),
            Err(message) => p.alert #plot-error { (message) },
        }
    };
    let title = format!("Grundy plot · {}", problem.title);
    let status = if result.is_ok() {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    Ok((status, page::frame(&title, Some(&visitor), body)).into_response())
}

/// The bar chart of `values`, the first at size `from`: one bar per size,
/// P-positions (`g = 0`) as a short marker of their own class, labelled
/// axes, and a `<title>` per bar saying `g(n) = v`.
fn chart(from: u64, values: &[u64]) -> Markup {
    let count = values.len().max(1) as f64;
    let top = values.iter().copied().max().unwrap_or(0).max(1);
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let step = plot_width / count;
    let bar_width = (step * 0.8).max(0.5);
    let base = TOP + plot_height;
    let height_of = |g: u64| g as f64 / top as f64 * plot_height;
    let x_of = |i: usize| LEFT + i as f64 * step + (step - bar_width) / 2.0;
    // About eight size labels, at round offsets from `from`.
    let label_every = nice_step(values.len() as u64 / 8);
    let value_ticks: Vec<u64> = if top <= 8 {
        (0..=top).collect()
    } else {
        let every = nice_step(top / 5);
        (0..=top / every).map(|k| k * every).collect()
    };
    let zeros = values.iter().filter(|&&g| g == 0).count();
    html! {
        figure.grundy #grundy-figure {
            svg.grundy-plot #grundy-plot xmlns="http://www.w3.org/2000/svg"
                viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img"
                aria-labelledby="grundy-caption" {
                @for tick in &value_ticks {
                    @let y = base - height_of(*tick);
                    line.grid x1=(LEFT) x2=(WIDTH - RIGHT) y1=(fmt(y)) y2=(fmt(y)) {}
                    text.tick.value-tick x=(fmt(LEFT - 6.0)) y=(fmt(y + 4.0)) text-anchor="end" { (tick) }
                }
                @for (i, g) in values.iter().enumerate() {
                    @let n = from.saturating_add(i as u64);
                    @if *g == 0 {
                        rect.bar.bar-zero x=(fmt(x_of(i))) y=(fmt(base - 3.0)) width=(fmt(bar_width)) height="3" {
                            title { "g(" (n) ") = 0" }
                        }
                    } @else {
                        @let h = height_of(*g);
                        rect.bar x=(fmt(x_of(i))) y=(fmt(base - h)) width=(fmt(bar_width)) height=(fmt(h)) {
                            title { "g(" (n) ") = " (g) }
                        }
                    }
                }
                line.axis x1=(LEFT) x2=(WIDTH - RIGHT) y1=(fmt(base)) y2=(fmt(base)) {}
                line.axis x1=(LEFT) x2=(LEFT) y1=(TOP) y2=(fmt(base)) {}
                @for (i, _) in values.iter().enumerate() {
                    @let n = from.saturating_add(i as u64);
                    @if n.is_multiple_of(label_every) {
                        @let x = x_of(i) + bar_width / 2.0;
                        line.axis x1=(fmt(x)) x2=(fmt(x)) y1=(fmt(base)) y2=(fmt(base + 4.0)) {}
                        text.tick.size-tick x=(fmt(x)) y=(fmt(base + 17.0)) text-anchor="middle" { (n) }
                    }
                }
                text.axis-label #x-label x=(fmt(LEFT + plot_width / 2.0)) y=(fmt(HEIGHT - 6.0)) text-anchor="middle" { "n" }
                text.axis-label #y-label x="14" y=(fmt(TOP + plot_height / 2.0)) text-anchor="middle"
                    transform={ "rotate(-90 14 " (fmt(TOP + plot_height / 2.0)) ")" } { "g(n)" }
            }
            figcaption #grundy-caption {
                "g(n) for n = " (from) " … " (from.saturating_add((values.len() as u64).saturating_sub(1)))
                ": largest value " (values.iter().copied().max().unwrap_or(0))
                ", " (zeros) " P-positions (g = 0, the short red marks)."
            }
        }
    }
}

/// The smallest of 1, 2, 5, 10, 20, 50, … that is at least `rough`.
fn nice_step(rough: u64) -> u64 {
    let mut step = 1u64;
    loop {
        for factor in [1, 2, 5] {
            let candidate = step.saturating_mul(factor);
            if candidate >= rough {
                return candidate;
            }
        }
        if step > u64::MAX / 10 {
            return u64::MAX;
        }
        step *= 10;
    }
}

/// A coordinate with at most two decimals.
fn fmt(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::{chart, fmt, nice_step};

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(0), 1);
        assert_eq!(nice_step(1), 1);
        assert_eq!(nice_step(3), 5);
        assert_eq!(nice_step(15), 20);
        assert_eq!(nice_step(50), 50);
        assert_eq!(nice_step(51), 100);
        assert_eq!(nice_step(u64::MAX), u64::MAX);
    }

    #[test]
    fn coordinates_are_short() {
        assert_eq!(fmt(12.0), "12");
        assert_eq!(fmt(12.5), "12.5");
        assert_eq!(fmt(1.0 / 3.0), "0.33");
    }

    #[test]
    fn the_chart_has_one_bar_per_size_and_no_style_attribute() {
        let svg = chart(10, &[0, 1, 2, 0, 3]).into_string();
        assert_eq!(svg.matches("<rect").count(), 5);
        assert_eq!(svg.matches("bar-zero").count(), 2);
        assert!(svg.contains("<title>g(12) = 2</title>"), "{svg}");
        assert!(svg.contains(">g(n)</text>"), "{svg}");
        assert!(!svg.contains("style="), "{svg}");
        // Sizes at the very top of u64 are labelled without overflow.
        let top = chart(u64::MAX - 1, &[1, 0]).into_string();
        assert!(top.contains(&(u64::MAX - 1).to_string()), "{top}");
    }
}
