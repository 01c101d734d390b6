//! Tables for people: a submission's per-testcase results, a listing of
//! submissions and the tokens, drawn with `comfy-table`. Times are RFC 3339 in UTC.

use comfy_table::{CellAlignment, Table, presets};

use crate::domain::{Event, Judgement, Submission, Timestamp, TokenRecord, Verdict};

fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_preset(presets::NOTHING).set_header(header);
    table
}

/// The heading line, the verdict's message, the compiler's messages of a
/// program that did not compile, and one row per testcase of the latest
/// judgement (time and memory as the web UI shows them), with its full
/// difference when the server sent one (to setters, or under feedback
/// `full`), else its message.
pub fn submission(submission: &Submission, judgements: &[Judgement]) -> String {
    let latest = judgements.last();
    let results = latest.map_or(&[][..], |j| &j.results[..]);
    let mut out = format!(
        "submission {}  problem {}  {}  verdict {}\n",
        submission.id,
        submission.problem,
        submission.language_text(),
        submission.verdict.map_or("-", |v| v.as_str())
    );
    if let Some(message) = &submission.message {
        out.push_str(&format!("  {message}\n"));
    }
    if submission.verdict == Some(Verdict::CE)
        && let Some(output) = latest.and_then(|j| j.compile_output.as_deref())
    {
        out.push_str("compiler output:\n");
        for line in output.lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    let mut rows = table(&["testcase", "verdict", "time", "memory", "message"]);
    for r in results {
        rows.add_row(vec![
            r.testcase.clone(),
            r.verdict.to_string(),
            r.time_text(),
            r.memory_text(),
            r.detail
                .clone()
                .or_else(|| r.message.clone())
                .unwrap_or_default(),
        ]);
    }
    for index in [2, 3] {
        if let Some(column) = rows.column_mut(index) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    out.push_str(&rows.to_string());
    out.push('\n');
    out
}

/// A submission's event log.
pub fn events(events: &[Event]) -> String {
    let mut rows = table(&["time", "event", "actor", "detail"]);
    for e in events {
        rows.add_row(vec![
            e.created_at.to_string(),
            e.kind.to_string(),
            e.actor.clone().unwrap_or_else(|| "-".into()),
            e.detail.clone().unwrap_or_default(),
        ]);
    }
    format!("{rows}\n")
}

/// One row per submission, newest first.
pub fn submissions(submissions: &[Submission]) -> String {
    let mut rows = table(&[
        "id",
        "problem",
        "user",
        "language",
        "state",
        "verdict",
        "time",
        "memory",
        "submitted",
    ]);
    for s in submissions {
        rows.add_row(vec![
            s.id.to_string(),
            s.problem.to_string(),
            s.user.clone(),
            s.language_text(),
            s.state.to_string(),
            s.verdict.map_or("-".into(), |v| v.to_string()),
            s.time_text(),
            s.memory_text(),
            s.created_at.to_string(),
        ]);
    }
    for index in [6, 7] {
        if let Some(column) = rows.column_mut(index) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    format!("{rows}\n")
}

/// One row per token, oldest first, with whether it works at `now`.
pub fn tokens(tokens: &[TokenRecord], now: Timestamp) -> String {
    let mut rows = table(&[
        "id", "name", "role", "state", "created", "expires", "revoked",
    ]);
    for t in tokens {
        let state = t.state(now);
        let time = |at: Option<Timestamp>| at.map_or("-".into(), |at| at.to_string());
        rows.add_row(vec![
            t.id.to_string(),
            t.name.clone(),
            t.role.to_string(),
            state.to_string(),
            t.created_at.to_string(),
            time(t.expires_at),
            time(t.revoked_at),
        ]);
    }
    if let Some(column) = rows.column_mut(0) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    format!("{rows}\n")
}
