//! Problems, testcases and the cache of reference outputs.

use std::collections::BTreeSet;

use super::{
    Store, StoreError,
    backend::{DbRow, Tx, query},
    now_ms, parse_column, parse_optional_column, time_column,
};
use crate::{
    checker::Case,
    domain::{Feedback, Problem, ProblemId, Testcase, TestcaseName, TestcaseOrigin},
    scoring::TestcaseGroup,
};

/// A problem definition as read from `problems/<id>/`, ready to sync.
#[derive(Debug, Clone)]
pub struct ProblemDefinition {
    pub id: ProblemId,
    pub title: String,
    pub source: String,
    pub source_url: Option<String>,
    pub statement: String,
    pub time_limit_ms: i64,
    pub memory_limit_mib: i64,
    pub feedback: Feedback,
    pub custom_checks: bool,
    pub judge_all: bool,
    /// Whether an interactive problem's practice page explains positions.
    pub practice_hints: bool,
    /// Its testcase groups (none: one group of every testcase).
    pub groups: Vec<TestcaseGroup>,
    /// Whether answers must match the reference's letters in case.
    pub case_sensitive: bool,
    /// For a problem without a solver: the setter solution that computes
    /// the references of testcases setters add.
    pub reference_solution: Option<ReferenceSolution>,
    /// sha256 of everything below; decides whether a sync makes a new version.
    pub hash: String,
    pub testcases: Vec<DefinedTestcase>,
}

/// An accepted setter solution that computes references where no solver
/// does: its path under the folder's `solutions/` (whose extension names
/// its language) and its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceSolution {
    pub name: String,
    pub source: String,
}

/// A testcase of a definition folder.
#[derive(Debug, Clone)]
pub struct DefinedTestcase {
    pub name: TestcaseName,
    pub input: String,
    /// `Sample` or `Generated`: the sync never writes setter testcases.
    pub origin: TestcaseOrigin,
    /// Whether contestants never see its input (an imported package's
    /// secret testcase); a sample never is.
    pub hidden: bool,
    /// Its reference output from the folder (`<name>.ans`), for a problem
    /// whose references are files; `None`: the solver core computes it.
    pub answer: Option<String>,
}

/// What became of a setter's request to delete a testcase or change whether
/// it is hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestcaseChange {
    Done,
    Missing,
    /// It comes from the problem folder (a sample or a generated one): the
    /// folder is its source of truth, and a sync does not bring it back.
    Bundled(TestcaseOrigin),
}

/// What a sync did to one problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncOutcome {
    Created { version: i64 },
    Updated { version: i64 },
    Unchanged { version: i64 },
}

impl SyncOutcome {
    /// The problem's version after the sync.
    pub fn version(self) -> i64 {
        match self {
            SyncOutcome::Created { version }
            | SyncOutcome::Updated { version }
            | SyncOutcome::Unchanged { version } => version,
        }
    }
}

/// A testcase as a worker needs it for judging.
#[derive(Debug, Clone)]
pub struct JudgeTestcase {
    /// The row id, the key of its cached references.
    pub id: i64,
    pub name: TestcaseName,
    pub hidden: bool,
    /// The input: always for a program, else only when the reference is not
    /// cached yet.
    pub input: Option<String>,
    pub reference: Option<ReferenceRow>,
}

/// The testcases a problem's submissions are judged on, as of one
/// revision of the problem (see [`Store::judge_testcases`]).
#[derive(Debug, Clone)]
pub struct JudgeSet {
    /// The problem's revision when they were read: bumped by every change
    /// to the problem or its testcases.
    pub revision: i64,
    /// The problem's version, the key of its references.
    pub version: i64,
    pub testcases: Vec<JudgeTestcase>,
    /// The problem's testcase groups, which its judgements are scored by.
    pub groups: Vec<TestcaseGroup>,
    /// How outputs are compared with the references.
    pub case: Case,
}

/// What taking in a submission and showing it to a contestant need of its
/// problem (see [`Store::submission_rules`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionRules {
    pub custom_checks: bool,
    pub feedback: Feedback,
    /// The testcases answers may name.
    pub public_testcases: BTreeSet<TestcaseName>,
}

/// A cached reference output (or the solver's failure).
#[derive(Debug, Clone)]
pub struct ReferenceRow {
    pub output: Option<String>,
    pub error: Option<String>,
}

/// A testcase whose reference is not computed for the current version.
#[derive(Debug, Clone)]
pub struct PendingReference {
    pub testcase_id: i64,
    pub problem_id: ProblemId,
    pub problem_version: i64,
    pub input: String,
}

/// The columns [`testcase`] reads, as a literal for `concat!`.
macro_rules! testcase_columns {
    () => {
        // octet_length reads the stored length, not the (multi-megabyte)
        // value.
        "t.name, t.hidden, t.origin, t.created_by, t.created_at, \
         cast((select octet_length(s.input) from testcase_input s where s.testcase_id = t.id) \
             as bigint) \
         as input_bytes, \
         case when r.testcase_id is null then 'pending' when r.output is null then 'failed' \
         else 'ready' end as status, r.error as reference_error"
    };
}

fn testcase(row: &DbRow) -> Result<Testcase, StoreError> {
    Ok(Testcase {
        name: parse_column(row, "name")?,
        hidden: row.try_get("hidden")?,
        origin: parse_column(row, "origin")?,
        created_by: row.try_get("created_by")?,
        status: parse_column(row, "status")?,
        reference_error: row.try_get("reference_error")?,
        input_bytes: row.try_get("input_bytes")?,
        created_at: time_column(row, "created_at")?,
    })
}

/// The columns [`problem`] reads, as a literal for `concat!`.
macro_rules! problem_columns {
    () => {
        "id, title, source, source_url, version, time_limit_ms, memory_limit_mib, \
         feedback, custom_checks, judge_all, practice_hints, groups, created_at, updated_at"
    };
}

/// A problem row's testcase groups.
fn groups(row: &DbRow) -> Result<Vec<TestcaseGroup>, StoreError> {
    serde_json::from_str(&row.try_get::<String>("groups")?)
        .map_err(|e| StoreError::Corrupt(format!("problem groups: {e}")))
}

fn problem(row: &DbRow, with_statement: bool) -> Result<Problem, StoreError> {
    Ok(Problem {
        id: parse_column(row, "id")?,
        title: row.try_get("title")?,
        source: row.try_get("source")?,
        source_url: row.try_get("source_url")?,
        version: row.try_get("version")?,
        time_limit_ms: row.try_get("time_limit_ms")?,
        memory_limit_mib: row.try_get("memory_limit_mib")?,
        feedback: parse_column(row, "feedback")?,
        custom_checks: row.try_get("custom_checks")?,
        judge_all: row.try_get("judge_all")?,
        practice_hints: row.try_get("practice_hints")?,
        groups: groups(row)?,
        interactive: false,
        takes_answers: false,
        statement: if with_statement {
            Some(row.try_get("statement")?)
        } else {
            None
        },
        created_at: time_column(row, "created_at")?,
        updated_at: time_column(row, "updated_at")?,
    })
}

impl Store {
    /// Brings one problem in line with its definition, in one transaction.
    /// Idempotent: an unchanged definition (same hash) is left alone; a
    /// changed one gets the next version. Testcases added by setters survive.
    pub async fn sync_problem(&self, def: &ProblemDefinition) -> Result<SyncOutcome, StoreError> {
        self.noted(async {
            let now = now_ms();
            let groups = serde_json::to_string(&def.groups)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let reference_name = def.reference_solution.as_ref().map(|r| r.name.as_str());
            let reference_source = def.reference_solution.as_ref().map(|r| r.source.as_str());
            let mut tx = self.write.begin().await?;
            let existing = query("select version, definition_hash from problem where id = $1")
                .bind(def.id.as_str())
                .fetch_optional(&mut tx)
                .await?;
            if let Some(row) = &existing
                && row.try_get::<String>("definition_hash")? == def.hash
            {
                let version = row.try_get("version")?;
                return Ok(SyncOutcome::Unchanged { version });
            }
            let version: i64 = query(
                "insert into problem (id, title, source, source_url, statement, version, \
                 definition_hash, time_limit_ms, memory_limit_mib, feedback, custom_checks, \
                 judge_all, created_at, updated_at, practice_hints, groups, case_sensitive, \
                 reference_solution_name, reference_solution) \
                 values ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14, $15, \
                 $16, $17) \
                 on conflict (id) do update set title = excluded.title, source = excluded.source, \
                 source_url = excluded.source_url, statement = excluded.statement, \
                 version = problem.version + 1, definition_hash = excluded.definition_hash, \
                 time_limit_ms = excluded.time_limit_ms, \
                 memory_limit_mib = excluded.memory_limit_mib, feedback = excluded.feedback, \
                 custom_checks = excluded.custom_checks, judge_all = excluded.judge_all, \
                 updated_at = excluded.updated_at, practice_hints = excluded.practice_hints, \
                 groups = excluded.groups, case_sensitive = excluded.case_sensitive, \
                 reference_solution_name = excluded.reference_solution_name, \
                 reference_solution = excluded.reference_solution \
                 returning version",
            )
            .bind(def.id.as_str())
            .bind(&def.title)
            .bind(&def.source)
            .bind(&def.source_url)
            .bind(&def.statement)
            .bind(&def.hash)
            .bind(def.time_limit_ms)
            .bind(def.memory_limit_mib)
            .bind(def.feedback.as_str())
            .bind(def.custom_checks)
            .bind(def.judge_all)
            .bind(now)
            .bind(def.practice_hints)
            .bind(&groups)
            .bind(def.case_sensitive)
            .bind(reference_name)
            .bind(reference_source)
            .fetch_one(&mut tx)
            .await?
            .try_get("version")?;
            let outcome = match existing {
                Some(_) => SyncOutcome::Updated { version },
                None => SyncOutcome::Created { version },
            };
            let names: Vec<&str> = def.testcases.iter().map(|t| t.name.as_str()).collect();
            let names =
                serde_json::to_string(&names).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            // Catalog testcases that left the folder go; setters' testcases stay.
            query(tx.dialect().pick(
                "delete from testcase where problem_id = $1 and origin != 'setter' \
                 and name not in (select value from json_each($2))",
                "delete from testcase where problem_id = $1 and origin != 'setter' \
                 and name not in (select json_array_elements_text($2::json))",
            ))
            .bind(def.id.as_str())
            .bind(&names)
            .execute(&mut tx)
            .await?;
            for testcase in &def.testcases {
                let id: i64 = query(
                    "insert into testcase (problem_id, name, hidden, origin, created_at) \
                     values ($1, $2, $5, $3, $4) \
                     on conflict (problem_id, name) do update set \
                     hidden = excluded.hidden, origin = excluded.origin, created_by = null \
                     returning id",
                )
                .bind(def.id.as_str())
                .bind(testcase.name.as_str())
                .bind(testcase.origin.as_str())
                .bind(now)
                .bind(testcase.hidden)
                .fetch_one(&mut tx)
                .await?
                .try_get("id")?;
                save_input(&mut tx, id, &testcase.input, now).await?;
                if let Some(answer) = &testcase.answer {
                    // The folder's answer is this version's reference: no
                    // solver computes it.
                    query(
                        "insert into reference (testcase_id, problem_version, output, error, compute_us, created_at) \
                         values ($1, $2, $3, null, 0, $4) \
                         on conflict (testcase_id, problem_version) do update set output = excluded.output, error = null",
                    )
                    .bind(id)
                    .bind(outcome.version())
                    .bind(answer)
                    .bind(now)
                    .execute(&mut tx)
                    .await?;
                }
            }
            revised(&mut tx, &def.id).await?;
            tx.commit().await?;
            Ok(outcome)
        }).await
    }

    /// Every problem, by id, without statements.
    pub async fn problems(&self) -> Result<Vec<Problem>, StoreError> {
        let rows = query(concat!(
            "select ",
            problem_columns!(),
            " from problem order by id"
        ))
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(|r| problem(r, false)).collect()
    }

    /// One problem with its statement.
    pub async fn problem(&self, id: &ProblemId) -> Result<Option<Problem>, StoreError> {
        let row = query(concat!(
            "select ",
            problem_columns!(),
            ", statement from problem where id = $1"
        ))
        .bind(id.as_str())
        .fetch_optional(&self.read)
        .await?;
        row.map(|r| problem(&r, true)).transpose()
    }

    /// The testcases of a problem, by name; hidden ones only if asked.
    pub async fn testcases(
        &self,
        problem_id: &ProblemId,
        include_hidden: bool,
    ) -> Result<Vec<Testcase>, StoreError> {
        let rows = query(concat!(
            "select ",
            testcase_columns!(),
            " from testcase t join problem p on p.id = t.problem_id \
             left join reference r on r.testcase_id = t.id and r.problem_version = p.version \
             where t.problem_id = $1 and ($2 or not t.hidden) order by t.name"
        ))
        .bind(problem_id.as_str())
        .bind(include_hidden)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(testcase).collect()
    }

    /// One testcase and its input.
    pub async fn testcase(
        &self,
        problem_id: &ProblemId,
        name: &TestcaseName,
    ) -> Result<Option<(Testcase, String)>, StoreError> {
        let row = query(concat!(
            "select ",
            testcase_columns!(),
            ", i.input from testcase t join problem p on p.id = t.problem_id \
             join testcase_input i on i.testcase_id = t.id \
             left join reference r on r.testcase_id = t.id and r.problem_version = p.version \
             where t.problem_id = $1 and t.name = $2"
        ))
        .bind(problem_id.as_str())
        .bind(name.as_str())
        .fetch_optional(&self.read)
        .await?;
        row.map(|r| Ok((testcase(&r)?, r.try_get("input")?)))
            .transpose()
    }

    /// Adds a setter's testcase. `Ok(false)` if the name is taken.
    pub async fn add_testcase(
        &self,
        problem_id: &ProblemId,
        name: &TestcaseName,
        input: &str,
        hidden: bool,
        by: &str,
    ) -> Result<bool, StoreError> {
        self.noted(async {
            let now = now_ms();
            let mut tx = self.write.begin().await?;
            let added = query(
                "insert into testcase (problem_id, name, hidden, origin, created_by, created_at) \
                 values ($1, $2, $3, 'setter', $4, $5) on conflict (problem_id, name) do nothing \
                 returning id",
            )
            .bind(problem_id.as_str())
            .bind(name.as_str())
            .bind(hidden)
            .bind(by)
            .bind(now)
            .fetch_optional(&mut tx)
            .await?;
            let Some(added) = added else {
                return Ok(false);
            };
            save_input(&mut tx, added.try_get("id")?, input, now).await?;
            // Its reference is a job for a worker.
            super::notices::job_queued(&mut tx, self.origin).await?;
            revised(&mut tx, problem_id).await?;
            tx.commit().await?;
            Ok(true)
        })
        .await
    }

    /// Deletes a testcase and its cached references. `Ok(false)` if absent.
    pub async fn delete_testcase(
        &self,
        problem_id: &ProblemId,
        name: &TestcaseName,
    ) -> Result<TestcaseChange, StoreError> {
        self.noted(async {
            let mut tx = self.write.begin().await?;
            if let Some(refused) = setter_testcase(&mut tx, problem_id, name).await? {
                return Ok(refused);
            }
            query("delete from testcase where problem_id = $1 and name = $2")
                .bind(problem_id.as_str())
                .bind(name.as_str())
                .execute(&mut tx)
                .await?;
            revised(&mut tx, problem_id).await?;
            tx.commit().await?;
            Ok(TestcaseChange::Done)
        })
        .await
    }

    /// Hides a setter's testcase from contestants, or shows it. A public
    /// testcase's input can be downloaded and answers are judged on it; a
    /// hidden one judges programs only. Verdicts already given stay until a
    /// rejudge.
    pub async fn set_testcase_hidden(
        &self,
        problem_id: &ProblemId,
        name: &TestcaseName,
        hidden: bool,
    ) -> Result<TestcaseChange, StoreError> {
        self.noted(async {
            let mut tx = self.write.begin().await?;
            if let Some(refused) = setter_testcase(&mut tx, problem_id, name).await? {
                return Ok(refused);
            }
            query("update testcase set hidden = $3 where problem_id = $1 and name = $2")
                .bind(problem_id.as_str())
                .bind(name.as_str())
                .bind(hidden)
                .execute(&mut tx)
                .await?;
            revised(&mut tx, problem_id).await?;
            tx.commit().await?;
            Ok(TestcaseChange::Done)
        })
        .await
    }

    /// A problem's testcases to judge against, samples first, then by name,
    /// with their cached references, read in one statement (one snapshot):
    /// public ones only, unless `for_program`, which also loads every input
    /// (otherwise an input is loaded only where the reference is missing).
    /// `None` if the problem does not exist.
    pub async fn judge_testcases(
        &self,
        problem_id: &ProblemId,
        for_program: bool,
    ) -> Result<Option<JudgeSet>, StoreError> {
        let rows = query(
            "select p.version, p.revision, p.groups, p.case_sensitive, t.id, t.name, t.hidden, \
             r.testcase_id is not null as cached, r.output, r.error, \
             case when t.id is not null and ($1 or r.testcase_id is null) then \
                 (select i.input from testcase_input i where i.testcase_id = t.id) end as input \
             from problem p \
             left join testcase t on t.problem_id = p.id and ($1 or not t.hidden) \
             left join reference r on r.testcase_id = t.id and r.problem_version = p.version \
             where p.id = $2 \
             order by t.origin <> 'sample', t.name",
        )
        .bind(for_program)
        .bind(problem_id.as_str())
        .fetch_all(&self.read)
        .await?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let mut testcases = Vec::with_capacity(rows.len());
        for row in &rows {
            // A problem without testcases is one row of nulls.
            let Some(id) = row.try_get::<Option<i64>>("id")? else {
                continue;
            };
            let cached: bool = row.try_get("cached")?;
            testcases.push(JudgeTestcase {
                id,
                name: parse_column(row, "name")?,
                hidden: row.try_get("hidden")?,
                input: row.try_get("input")?,
                reference: if cached {
                    Some(ReferenceRow {
                        output: row.try_get("output")?,
                        error: row.try_get("error")?,
                    })
                } else {
                    None
                },
            });
        }
        Ok(Some(JudgeSet {
            revision: first.try_get("revision")?,
            version: first.try_get("version")?,
            testcases,
            groups: groups(first)?,
            case: Case::new(first.try_get("case_sensitive")?),
        }))
    }

    /// What taking in and showing a submission of a problem need of it, in
    /// one statement. `None` if there is no such problem.
    pub async fn submission_rules(
        &self,
        problem_id: &ProblemId,
    ) -> Result<Option<SubmissionRules>, StoreError> {
        let rows = query(
            "select p.custom_checks, p.feedback, t.name from problem p \
             left join testcase t on t.problem_id = p.id and not t.hidden where p.id = $1",
        )
        .bind(problem_id.as_str())
        .fetch_all(&self.read)
        .await?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let mut public_testcases = BTreeSet::new();
        for row in &rows {
            if let Some(name) = parse_optional_column(row, "name")? {
                public_testcases.insert(name);
            }
        }
        Ok(Some(SubmissionRules {
            custom_checks: first.try_get("custom_checks")?,
            feedback: parse_column(first, "feedback")?,
            public_testcases,
        }))
    }

    /// Caches a reference; the first write for a (testcase, version) wins.
    /// `Ok(false)` if it was not stored: another was first, or the testcase
    /// is gone.
    pub async fn save_reference(
        &self,
        testcase_id: i64,
        problem_version: i64,
        reference: &ReferenceRow,
        compute_us: i64,
    ) -> Result<bool, StoreError> {
        self.noted(async {
            // One statement, so the check and the insert cannot be split by a
            // setter deleting the testcase: a reference for a testcase deleted
            // while it was computed is dropped, not a foreign-key failure.
            let done = query(
                "insert into reference (testcase_id, problem_version, output, error, compute_us, created_at) \
                 select $1, $2, $3, $4, $5, $6 where exists (select 1 from testcase where id = $1) \
                 on conflict do nothing",
            )
            .bind(testcase_id)
            .bind(problem_version)
            .bind(&reference.output)
            .bind(&reference.error)
            .bind(compute_us)
            .bind(now_ms())
            .execute(&self.write)
            .await?;
            Ok(done == 1)
        }).await
    }

    /// The reference output of a problem's testcase for its current
    /// version, if one is computed (and did not fail).
    pub async fn current_reference_output(
        &self,
        problem_id: &ProblemId,
        name: &TestcaseName,
    ) -> Result<Option<String>, StoreError> {
        let row = query(
            "select r.output from testcase t join problem p on p.id = t.problem_id \
             join reference r on r.testcase_id = t.id and r.problem_version = p.version \
             where t.problem_id = $1 and t.name = $2",
        )
        .bind(problem_id.as_str())
        .bind(name.as_str())
        .fetch_optional(&self.read)
        .await?;
        Ok(match row {
            Some(row) => row.try_get("output")?,
            None => None,
        })
    }

    /// The cached reference of a testcase for a problem version, if any.
    pub async fn reference(
        &self,
        testcase_id: i64,
        problem_version: i64,
    ) -> Result<Option<ReferenceRow>, StoreError> {
        let row = query(
            "select output, error from reference where testcase_id = $1 and problem_version = $2",
        )
        .bind(testcase_id)
        .bind(problem_version)
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| {
            Ok(ReferenceRow {
                output: row.try_get("output")?,
                error: row.try_get("error")?,
            })
        })
        .transpose()
    }

    /// The setter solution that computes a problem's references where no
    /// solver does, if its definition names one.
    pub async fn reference_solution(
        &self,
        problem_id: &ProblemId,
    ) -> Result<Option<ReferenceSolution>, StoreError> {
        let row = query(
            "select reference_solution_name, reference_solution from problem \
             where id = $1 and reference_solution_name is not null",
        )
        .bind(problem_id.as_str())
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| {
            Ok(ReferenceSolution {
                name: row.try_get("reference_solution_name")?,
                source: row.try_get("reference_solution")?,
            })
        })
        .transpose()
    }

    /// A testcase whose reference is missing for its problem's current
    /// version; with `sandboxed` off, only one that no reference solution
    /// computes (a host without the sandbox cannot run one).
    pub async fn pending_reference(
        &self,
        sandboxed: bool,
    ) -> Result<Option<PendingReference>, StoreError> {
        let row = query(
            "select t.id, t.problem_id, p.version, i.input from testcase t \
             join problem p on p.id = t.problem_id \
             join testcase_input i on i.testcase_id = t.id \
             left join reference r on r.testcase_id = t.id and r.problem_version = p.version \
             where r.testcase_id is null and ($1 or p.reference_solution_name is null) \
             order by t.id limit 1",
        )
        .bind(sandboxed)
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| {
            Ok(PendingReference {
                testcase_id: row.try_get("id")?,
                problem_id: parse_column(&row, "problem_id")?,
                problem_version: row.try_get("version")?,
                input: row.try_get("input")?,
            })
        })
        .transpose()
    }
}

/// Stores (or replaces) a testcase's input, kept apart from its row so
/// that reading a testcase never walks a multi-megabyte value.
async fn save_input(
    tx: &mut Tx,
    testcase_id: i64,
    input: &str,
    now: i64,
) -> Result<(), StoreError> {
    query(
        "insert into testcase_input (testcase_id, input, created_at) values ($1, $2, $3) \
         on conflict (testcase_id) do update set input = excluded.input",
    )
    .bind(testcase_id)
    .bind(input)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Records, in the transaction that changes a problem or its set of
/// testcases, that its catalog data changed: its revision goes up (what a
/// worker's judge set in memory is compared with) and, at commit, other
/// hosts are told to read its submission rules again. The caller drops its
/// own process's rules after the commit.
async fn revised(tx: &mut Tx, problem_id: &ProblemId) -> Result<(), StoreError> {
    query("update problem set revision = revision + 1 where id = $1")
        .bind(problem_id.as_str())
        .execute(&mut *tx)
        .await?;
    super::notices::catalog_changed(tx).await
}

/// `None` if the testcase exists and is a setter's, so a setter may change
/// it; otherwise why not.
async fn setter_testcase(
    tx: &mut Tx,
    problem_id: &ProblemId,
    name: &TestcaseName,
) -> Result<Option<TestcaseChange>, StoreError> {
    let origin = query("select origin from testcase where problem_id = $1 and name = $2")
        .bind(problem_id.as_str())
        .bind(name.as_str())
        .fetch_optional(&mut *tx)
        .await?;
    let Some(origin) = origin else {
        return Ok(Some(TestcaseChange::Missing));
    };
    let origin: TestcaseOrigin = parse_column(&origin, "origin")?;
    Ok((origin != TestcaseOrigin::Setter).then_some(TestcaseChange::Bundled(origin)))
}
