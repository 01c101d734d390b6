//! Points, pure: a problem's testcase groups (`[[group]]` in its
//! `problem.toml`), the score a judgement earns from them, and the best
//! score a contestant holds over several submissions.
//!
//! Scores are whole hundredths of a point (`12_50` is 12.5 points), so sums
//! and comparisons are exact. A group scores its points when every one of
//! its testcases passes (`all`, the default), or the share of its points
//! its passed testcases make (`fraction`, rounded down to a hundredth). A
//! testcase passes when its result is AC; one not judged (skipped after a
//! failure) does not. A problem without groups is one group `all` of 100
//! points over every testcase: full marks for an AC, none otherwise.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::ScoreBy;

/// The most points a group is worth.
pub const MAX_GROUP_POINTS: i64 = 1000;
/// The most groups a problem has.
pub const MAX_GROUPS: usize = 100;

/// How a group scores from its testcases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GroupRule {
    /// Its points when every testcase passes, else nothing.
    #[default]
    All,
    /// Its points times the share of its testcases that pass.
    Fraction,
}

/// A group of testcases worth some points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TestcaseGroup {
    /// Shown to contestants beside the group's score, e.g. `small`.
    pub name: String,
    /// Whole points, 0 to [`MAX_GROUP_POINTS`].
    pub points: i64,
    /// Testcase names, or prefixes ending in `*` (`small-*`; `*` alone is
    /// every testcase). A testcase belongs to the first group that names it.
    pub testcases: Vec<String>,
    #[serde(default)]
    pub rule: GroupRule,
}

impl TestcaseGroup {
    fn holds(&self, testcase: &str) -> bool {
        self.testcases
            .iter()
            .any(|pattern| matches(pattern, testcase))
    }
}

fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// The groups a problem is scored by: its own, or the one group of 100
/// points over every testcase when it defines none.
pub fn groups_or_default(groups: &[TestcaseGroup]) -> Vec<TestcaseGroup> {
    if groups.is_empty() {
        vec![TestcaseGroup {
            name: "all".into(),
            points: 100,
            testcases: vec!["*".into()],
            rule: GroupRule::All,
        }]
    } else {
        groups.to_vec()
    }
}

/// Checks a problem's groups against its testcases: names unique and
/// non-empty, points in range, every pattern matching some testcase and
/// every testcase in some group. The message names the group at fault.
pub fn validate_groups<'a>(
    groups: &[TestcaseGroup],
    testcases: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<(), String> {
    if groups.len() > MAX_GROUPS {
        return Err(format!("at most {MAX_GROUPS} groups, not {}", groups.len()));
    }
    for (index, group) in groups.iter().enumerate() {
        let at = format!("`group[{index}]`");
        let name = group.name.trim();
        if name.is_empty() || name.chars().count() > 40 {
            return Err(format!("{at}: `name` must be 1 to 40 characters"));
        }
        if let Some(first) = groups[..index].iter().position(|g| g.name == group.name) {
            return Err(format!(
                "{at}: the name `{}` is taken by `group[{first}]`",
                group.name
            ));
        }
        if !(0..=MAX_GROUP_POINTS).contains(&group.points) {
            return Err(format!(
                "{at} (`{name}`): `points` must be 0 to {MAX_GROUP_POINTS}, not {}",
                group.points
            ));
        }
        if group.testcases.is_empty() {
            return Err(format!("{at} (`{name}`): `testcases` is empty"));
        }
        for pattern in &group.testcases {
            if !testcases.clone().into_iter().any(|t| matches(pattern, t)) {
                return Err(format!(
                    "{at} (`{name}`): `{pattern}` names no testcase of the problem"
                ));
            }
        }
    }
    if !groups.is_empty()
        && let Some(loose) = testcases
            .into_iter()
            .find(|t| !groups.iter().any(|g| g.holds(t)))
    {
        return Err(format!(
            "testcase `{loose}` is in no group (every testcase of a problem with groups must be)"
        ));
    }
    Ok(())
}

/// Each group's score in hundredths, in the order of `groups` (after
/// [`groups_or_default`]), from every testcase of the judged set and
/// whether it passed. A testcase belongs to the first group holding it.
pub fn group_scores<'a>(
    groups: &[TestcaseGroup],
    testcases: impl IntoIterator<Item = (&'a str, bool)>,
) -> Vec<i64> {
    let groups = groups_or_default(groups);
    let mut counts = vec![(0i64, 0i64); groups.len()];
    for (name, passed) in testcases {
        if let Some(index) = groups.iter().position(|g| g.holds(name)) {
            counts[index].0 += 1;
            counts[index].1 += i64::from(passed);
        }
    }
    groups
        .iter()
        .zip(counts)
        .map(|(group, (total, passed))| {
            let full = group.points * 100;
            match group.rule {
                _ if total == 0 => 0,
                GroupRule::All if passed == total => full,
                GroupRule::All => 0,
                GroupRule::Fraction => full * passed / total,
            }
        })
        .collect()
}

/// The score a contestant holds on a problem after each of their judged
/// submissions to it, oldest first (each as [`group_scores`] gave it),
/// taken as `by` says: the best submission's total, or under `Group` each
/// group's best summed over the submissions with as many groups as the one
/// just judged (the problem's groups changed in between otherwise; the
/// others count by their totals), whichever is more. One pass: each group
/// count's best groups are kept apart.
pub fn scores_held<'a>(by: ScoreBy, submissions: impl IntoIterator<Item = &'a [i64]>) -> Vec<i64> {
    let mut best_total = 0;
    let mut best_groups: HashMap<usize, Vec<i64>> = HashMap::new();
    submissions
        .into_iter()
        .map(|scores| {
            best_total = best_total.max(scores.iter().sum());
            match by {
                ScoreBy::Submission => best_total,
                ScoreBy::Group => {
                    let best = best_groups
                        .entry(scores.len())
                        .or_insert_with(|| vec![0; scores.len()]);
                    for (best, &score) in best.iter_mut().zip(scores) {
                        *best = (*best).max(score);
                    }
                    best_total.max(best.iter().sum())
                }
            }
        })
        .collect()
}

/// The score held after the last of `held` ([`scores_held`]) and the
/// position of the submission that last changed it (its last improvement,
/// unless the problem's groups changed in between); no position while the
/// score is 0.
pub fn last_change(held: &[i64]) -> (i64, Option<usize>) {
    let mut before = 0;
    let mut changed = None;
    for (index, &score) in held.iter().enumerate() {
        if score != before {
            changed = Some(index);
        }
        before = score;
    }
    (before, changed.filter(|_| before > 0))
}

/// Group scores as stored: hundredths joined by commas (`2000,0,1500`).
pub fn encode(scores: &[i64]) -> String {
    scores
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The group scores [`encode`] wrote; `None` if the text is not theirs.
pub fn decode(text: &str) -> Option<Vec<i64>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(',').map(|part| part.parse().ok()).collect()
}

/// Hundredths as points for JSON (`1250` is `12.5`).
pub fn points(hundredths: i64) -> f64 {
    hundredths as f64 / 100.0
}

/// Hundredths as text: `12.5`, `100`, `33.33`.
pub fn points_text(hundredths: i64) -> String {
    let whole = hundredths / 100;
    match hundredths % 100 {
        0 => whole.to_string(),
        part if part % 10 == 0 => format!("{whole}.{}", part / 10),
        part => format!("{whole}.{part:02}"),
    }
}

/// Points as JSON carries them ([`points`]) as text, as [`points_text`].
pub fn points_shown(points: f64) -> String {
    points_text((points * 100.0).round() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule read directly, over all of a history at once (what
    /// [`scores_held`] keeps after each submission): the score a contestant
    /// holds from the group scores of their judged submissions, oldest
    /// first. Under `Group`, only submissions with as many groups as the
    /// newest are combined group by group (the problem's groups changed in
    /// between otherwise); the others count by their totals.
    fn best_score<'a>(by: ScoreBy, submissions: impl IntoIterator<Item = &'a [i64]>) -> i64 {
        let submissions: Vec<&[i64]> = submissions.into_iter().collect();
        let best_total = submissions
            .iter()
            .map(|scores| scores.iter().sum())
            .max()
            .unwrap_or(0);
        let Some(newest) = submissions.last() else {
            return 0;
        };
        match by {
            ScoreBy::Submission => best_total,
            ScoreBy::Group => {
                let mut best_groups = vec![0; newest.len()];
                for scores in submissions.iter().filter(|s| s.len() == newest.len()) {
                    for (best, &score) in best_groups.iter_mut().zip(scores.iter()) {
                        *best = (*best).max(score);
                    }
                }
                best_total.max(best_groups.iter().sum())
            }
        }
    }

    /// The score held after each submission is `best_score` of the
    /// submissions up to it, for random histories in which the problem's
    /// groups change now and then; and the last change is where that
    /// sequence last moves.
    #[test]
    fn scores_held_are_the_best_score_of_each_prefix() {
        use crate::solver::seeded::SeededRng;
        for seed in 0..400 {
            let mut rng = SeededRng::new(seed);
            let by = if seed % 2 == 0 {
                ScoreBy::Group
            } else {
                ScoreBy::Submission
            };
            let history: Vec<Vec<i64>> = (0..rng.range_usize(0, 9))
                .map(|_| {
                    let groups = if rng.chance(1, 5) { 2 } else { 3 };
                    (0..groups).map(|_| rng.range(0, 3) as i64 * 1000).collect()
                })
                .collect();
            let held = scores_held(by, history.iter().map(Vec::as_slice));
            let prefixes: Vec<i64> = (1..=history.len())
                .map(|k| best_score(by, history[..k].iter().map(Vec::as_slice)))
                .collect();
            assert_eq!(held, prefixes, "seed {seed}: {history:?}");
            let (score, changed) = last_change(&held);
            assert_eq!(score, best_score(by, history.iter().map(Vec::as_slice)));
            match changed {
                None => assert_eq!(score, 0, "{held:?}"),
                Some(at) => {
                    assert!(score > 0);
                    assert!(held[at..].iter().all(|&s| s == score), "{held:?}");
                    assert!(at == 0 || held[at - 1] != score, "{held:?}");
                }
            }
        }
        assert_eq!(last_change(&[0, 3000, 3000, 5000, 5000]), (5000, Some(3)));
        assert_eq!(last_change(&[0, 0]), (0, None));
        assert_eq!(last_change(&[]), (0, None));
    }

    fn group(name: &str, points: i64, testcases: &[&str], rule: GroupRule) -> TestcaseGroup {
        TestcaseGroup {
            name: name.into(),
            points,
            testcases: testcases.iter().map(|t| t.to_string()).collect(),
            rule,
        }
    }

    const NAMES: [&str; 5] = ["sample-1", "small-1", "small-2", "max-1", "max-2"];

    fn three_groups() -> Vec<TestcaseGroup> {
        vec![
            group("samples", 0, &["sample-*"], GroupRule::All),
            group("small", 40, &["small-1", "small-2"], GroupRule::All),
            group("max", 60, &["max-*"], GroupRule::Fraction),
        ]
    }

    #[test]
    fn groups_must_cover_every_testcase_and_name_what_they_hold() {
        assert_eq!(validate_groups(&three_groups(), NAMES), Ok(()));
        assert_eq!(validate_groups(&[], NAMES), Ok(()));
        let mut groups = three_groups();
        groups.pop();
        assert_eq!(
            validate_groups(&groups, NAMES),
            Err(
                "testcase `max-1` is in no group (every testcase of a problem with groups must be)"
                    .into()
            )
        );
        let mut groups = three_groups();
        groups[2].testcases.push("huge-*".into());
        assert_eq!(
            validate_groups(&groups, NAMES),
            Err("`group[2]` (`max`): `huge-*` names no testcase of the problem".into())
        );
        let mut groups = three_groups();
        groups[1].name = "samples".into();
        assert_eq!(
            validate_groups(&groups, NAMES),
            Err("`group[1]`: the name `samples` is taken by `group[0]`".into())
        );
        let mut groups = three_groups();
        groups[1].points = 1001;
        assert_eq!(
            validate_groups(&groups, NAMES),
            Err("`group[1]` (`small`): `points` must be 0 to 1000, not 1001".into())
        );
        let mut groups = three_groups();
        groups[0].testcases.clear();
        assert_eq!(
            validate_groups(&groups, NAMES),
            Err("`group[0]` (`samples`): `testcases` is empty".into())
        );
    }

    #[test]
    fn a_group_scores_all_or_nothing_or_its_share() {
        let passed = |set: &[&str]| {
            group_scores(
                &three_groups(),
                NAMES.iter().map(|name| (*name, set.contains(name))),
            )
        };
        assert_eq!(passed(&NAMES), [0, 4000, 6000]);
        assert_eq!(passed(&["small-1", "max-2"]), [0, 0, 3000]);
        assert_eq!(passed(&["small-1", "small-2"]), [0, 4000, 0]);
        // A third of 10 points is 3.33, rounded down.
        let thirds = [group("g", 10, &["*"], GroupRule::Fraction)];
        assert_eq!(
            group_scores(&thirds, [("a", true), ("b", false), ("c", false)]),
            [333]
        );
        // Without groups: 100 for passing everything, else nothing.
        assert_eq!(group_scores(&[], [("a", true), ("b", true)]), [10_000]);
        assert_eq!(group_scores(&[], [("a", true), ("b", false)]), [0]);
    }

    #[test]
    fn the_best_score_by_group_or_by_submission() {
        // The score held after the last submission, as the product keeps it.
        let held =
            |by, history: &[&[i64]]| last_change(&scores_held(by, history.iter().copied())).0;
        for (by, history, score) in [
            (
                ScoreBy::Group,
                &[&[0, 4000, 0][..], &[0, 0, 3000]][..],
                7000,
            ),
            (
                ScoreBy::Submission,
                &[&[0, 4000, 0][..], &[0, 0, 3000]][..],
                4000,
            ),
            (ScoreBy::Group, &[][..], 0),
            (ScoreBy::Group, &[&[9000][..], &[0, 0, 3000]][..], 9000),
            (
                ScoreBy::Group,
                &[&[6500][..], &[0, 4000, 0], &[0, 0, 3000]][..],
                7000,
            ),
        ] {
            assert_eq!(held(by, history), score, "{by:?} {history:?}");
        }
        let first: &[i64] = &[0, 4000, 0];
        let second: &[i64] = &[0, 0, 3000];
        assert_eq!(best_score(ScoreBy::Group, [first, second]), 7000);
        assert_eq!(best_score(ScoreBy::Submission, [first, second]), 4000);
        assert_eq!(best_score(ScoreBy::Group, []), 0);
        // Groups that changed in between: the older count by their totals.
        let old: &[i64] = &[9000];
        assert_eq!(best_score(ScoreBy::Group, [old, second]), 9000);
        assert_eq!(best_score(ScoreBy::Group, [old, first, second]), 9000);
        let older: &[i64] = &[6500];
        assert_eq!(best_score(ScoreBy::Group, [older, first, second]), 7000);
    }

    #[test]
    fn stored_scores_and_points_read_back() {
        assert_eq!(encode(&[2000, 0, 1550]), "2000,0,1550");
        assert_eq!(decode("2000,0,1550"), Some(vec![2000, 0, 1550]));
        assert_eq!(decode(""), Some(vec![]));
        assert_eq!(decode("12,x"), None);
        assert_eq!(points_text(10_000), "100");
        assert_eq!(points_text(1250), "12.5");
        assert_eq!(points_text(3333), "33.33");
        assert_eq!(points_text(5), "0.05");
        assert_eq!(points(1250), 12.5);
        assert_eq!(points_shown(points(3333)), "33.33");
    }
}
