//! Problems, testcases and the cache of reference outputs.

use serde::Serialize;
use sqlx::{Row, sqlite::SqliteRow};

use super::{Store, StoreError, now_ms};
use crate::solver::TestKind;

/// A problem definition as read from `problems/<id>/`, ready to sync.
#[derive(Debug, Clone)]
pub struct ProblemDefinition {
    pub id: String,
    pub title: String,
    pub statement: String,
    pub time_limit_ms: i64,
    /// sha256 of everything below; decides whether a sync makes a new version.
    pub hash: String,
    pub testcases: Vec<DefinedTestcase>,
}

/// A testcase of a definition folder.
#[derive(Debug, Clone)]
pub struct DefinedTestcase {
    pub name: String,
    pub input: String,
    /// `sample` or `generated`.
    pub origin: String,
    /// The kind and seed `nimjudge generate` makes the input from, when the
    /// manifest records them. Not stored: the input itself is.
    pub generator: Option<(TestKind, u64)>,
}

/// What a sync did to one problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncOutcome {
    Created { version: i64 },
    Updated { version: i64 },
    Unchanged { version: i64 },
}

/// A stored problem.
#[derive(Debug, Clone, Serialize)]
pub struct ProblemRow {
    pub id: String,
    pub title: String,
    pub version: i64,
    pub time_limit_ms: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A stored testcase, with the state of its reference output for the
/// problem's current version.
#[derive(Debug, Clone, Serialize)]
pub struct TestcaseRow {
    #[serde(skip)]
    pub id: i64,
    pub name: String,
    pub hidden: bool,
    pub origin: String,
    pub created_by: Option<String>,
    /// `pending` (not computed yet), `ready`, or `failed` (the solver rejected it).
    pub status: String,
    pub created_at: i64,
}

/// A testcase as a worker needs it for judging.
#[derive(Debug, Clone)]
pub struct JudgeTestcase {
    pub id: i64,
    pub name: String,
    pub hidden: bool,
    /// The input, loaded only when the reference is not cached yet.
    pub input: Option<String>,
    pub reference: Option<ReferenceRow>,
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
    pub problem_id: String,
    pub problem_version: i64,
    pub input: String,
}

const TESTCASE_COLUMNS: &str = "t.id, t.name, t.hidden, t.origin, t.created_by, t.created_at, \
     case when r.testcase_id is null then 'pending' when r.output is null then 'failed' else 'ready' end as status";

fn testcase_row(row: &SqliteRow) -> Result<TestcaseRow, StoreError> {
    Ok(TestcaseRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        hidden: row.try_get("hidden")?,
        origin: row.try_get("origin")?,
        created_by: row.try_get("created_by")?,
        status: row.try_get("status")?,
        created_at: row.try_get("created_at")?,
    })
}

fn problem_row(row: &SqliteRow, with_statement: bool) -> Result<ProblemRow, StoreError> {
    Ok(ProblemRow {
        id: row.try_get("id")?,
        title: row.try_get("title")?,
        version: row.try_get("version")?,
        time_limit_ms: row.try_get("time_limit_ms")?,
        statement: if with_statement {
            Some(row.try_get("statement")?)
        } else {
            None
        },
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

impl Store {
    /// Brings one problem in line with its definition, in one transaction.
    /// Idempotent: an unchanged definition (same hash) is left alone; a
    /// changed one gets the next version. Testcases added by setters survive.
    pub async fn sync_problem(&self, def: &ProblemDefinition) -> Result<SyncOutcome, StoreError> {
        let now = now_ms();
        let mut tx = self.write.begin().await?;
        let existing = sqlx::query("select version, definition_hash from problem where id = ?")
            .bind(&def.id)
            .fetch_optional(&mut *tx)
            .await?;
        let outcome = match existing {
            Some(row) => {
                let version: i64 = row.try_get("version")?;
                let hash: String = row.try_get("definition_hash")?;
                if hash == def.hash {
                    return Ok(SyncOutcome::Unchanged { version });
                }
                sqlx::query(
                    "update problem set title = ?, statement = ?, time_limit_ms = ?, \
                     definition_hash = ?, version = version + 1, updated_at = ? where id = ?",
                )
                .bind(&def.title)
                .bind(&def.statement)
                .bind(def.time_limit_ms)
                .bind(&def.hash)
                .bind(now)
                .bind(&def.id)
                .execute(&mut *tx)
                .await?;
                SyncOutcome::Updated {
                    version: version + 1,
                }
            }
            None => {
                sqlx::query(
                    "insert into problem (id, title, statement, version, definition_hash, \
                     time_limit_ms, created_at, updated_at) values (?, ?, ?, 1, ?, ?, ?, ?)",
                )
                .bind(&def.id)
                .bind(&def.title)
                .bind(&def.statement)
                .bind(&def.hash)
                .bind(def.time_limit_ms)
                .bind(now)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                SyncOutcome::Created { version: 1 }
            }
        };
        let names: Vec<&str> = def.testcases.iter().map(|t| t.name.as_str()).collect();
        let names =
            serde_json::to_string(&names).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        // Catalog testcases that left the folder go; setters' testcases stay.
        sqlx::query(
            "delete from testcase where problem_id = ? and origin != 'setter' \
             and name not in (select value from json_each(?))",
        )
        .bind(&def.id)
        .bind(&names)
        .execute(&mut *tx)
        .await?;
        for testcase in &def.testcases {
            sqlx::query(
                "insert into testcase (problem_id, name, input, hidden, origin, created_at) \
                 values (?, ?, ?, 0, ?, ?) \
                 on conflict (problem_id, name) do update set input = excluded.input, \
                 hidden = 0, origin = excluded.origin, created_by = null",
            )
            .bind(&def.id)
            .bind(&testcase.name)
            .bind(&testcase.input)
            .bind(&testcase.origin)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(outcome)
    }

    /// Every problem, by id, without statements.
    pub async fn problems(&self) -> Result<Vec<ProblemRow>, StoreError> {
        let rows = sqlx::query(
            "select id, title, version, time_limit_ms, created_at, updated_at from problem order by id",
        )
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(|r| problem_row(r, false)).collect()
    }

    /// One problem with its statement.
    pub async fn problem(&self, id: &str) -> Result<Option<ProblemRow>, StoreError> {
        let row = sqlx::query(
            "select id, title, version, time_limit_ms, statement, created_at, updated_at \
             from problem where id = ?",
        )
        .bind(id)
        .fetch_optional(&self.read)
        .await?;
        row.map(|r| problem_row(&r, true)).transpose()
    }

    /// The testcases of a problem, by name; hidden ones only if asked.
    pub async fn testcases(
        &self,
        problem_id: &str,
        include_hidden: bool,
    ) -> Result<Vec<TestcaseRow>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {TESTCASE_COLUMNS} from testcase t join problem p on p.id = t.problem_id \
             left join reference r on r.testcase_id = t.id and r.problem_version = p.version \
             where t.problem_id = ? and (? or t.hidden = 0) order by t.name"
        )))
        .bind(problem_id)
        .bind(include_hidden)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(testcase_row).collect()
    }

    /// One testcase and its input.
    pub async fn testcase(
        &self,
        problem_id: &str,
        name: &str,
    ) -> Result<Option<(TestcaseRow, String)>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {TESTCASE_COLUMNS}, t.input from testcase t join problem p on p.id = t.problem_id \
             left join reference r on r.testcase_id = t.id and r.problem_version = p.version \
             where t.problem_id = ? and t.name = ?"
        )))
        .bind(problem_id)
        .bind(name)
        .fetch_optional(&self.read)
        .await?;
        row.map(|r| Ok((testcase_row(&r)?, r.try_get("input")?)))
            .transpose()
    }

    /// Adds a setter's testcase. `Ok(false)` if the name is taken.
    pub async fn add_testcase(
        &self,
        problem_id: &str,
        name: &str,
        input: &str,
        hidden: bool,
        by: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "insert into testcase (problem_id, name, input, hidden, origin, created_by, created_at) \
             values (?, ?, ?, ?, 'setter', ?, ?) on conflict (problem_id, name) do nothing",
        )
        .bind(problem_id)
        .bind(name)
        .bind(input)
        .bind(hidden)
        .bind(by)
        .bind(now_ms())
        .execute(&self.write)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes a testcase and its cached references. `Ok(false)` if absent.
    pub async fn delete_testcase(&self, problem_id: &str, name: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("delete from testcase where problem_id = ? and name = ?")
            .bind(problem_id)
            .bind(name)
            .execute(&self.write)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The problem's current version and its testcases (public ones only if
    /// asked) with cached references; inputs are loaded only where the
    /// reference is missing. `None` if the problem does not exist.
    pub async fn judge_testcases(
        &self,
        problem_id: &str,
        public_only: bool,
    ) -> Result<Option<(i64, Vec<JudgeTestcase>)>, StoreError> {
        let Some(version) = sqlx::query("select version from problem where id = ?")
            .bind(problem_id)
            .fetch_optional(&self.read)
            .await?
        else {
            return Ok(None);
        };
        let version: i64 = version.try_get("version")?;
        let rows = sqlx::query(
            "select t.id, t.name, t.hidden, r.testcase_id is not null as cached, r.output, r.error, \
             case when r.testcase_id is null then t.input end as input \
             from testcase t left join reference r on r.testcase_id = t.id and r.problem_version = ? \
             where t.problem_id = ? and (not ? or t.hidden = 0) order by t.name",
        )
        .bind(version)
        .bind(problem_id)
        .bind(public_only)
        .fetch_all(&self.read)
        .await?;
        let testcases = rows
            .iter()
            .map(|row| {
                let cached: bool = row.try_get("cached")?;
                Ok(JudgeTestcase {
                    id: row.try_get("id")?,
                    name: row.try_get("name")?,
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
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Some((version, testcases)))
    }

    /// Caches a reference; the first write for a (testcase, version) wins.
    pub async fn save_reference(
        &self,
        testcase_id: i64,
        problem_version: i64,
        reference: &ReferenceRow,
        compute_us: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "insert into reference (testcase_id, problem_version, output, error, compute_us, created_at) \
             values (?, ?, ?, ?, ?, ?) on conflict do nothing",
        )
        .bind(testcase_id)
        .bind(problem_version)
        .bind(&reference.output)
        .bind(&reference.error)
        .bind(compute_us)
        .bind(now_ms())
        .execute(&self.write)
        .await?;
        Ok(())
    }

    /// A testcase whose reference is missing for its problem's current version.
    pub async fn pending_reference(&self) -> Result<Option<PendingReference>, StoreError> {
        let row = sqlx::query(
            "select t.id, t.problem_id, p.version, t.input from testcase t \
             join problem p on p.id = t.problem_id \
             left join reference r on r.testcase_id = t.id and r.problem_version = p.version \
             where r.testcase_id is null order by t.id limit 1",
        )
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| {
            Ok(PendingReference {
                testcase_id: row.try_get("id")?,
                problem_id: row.try_get("problem_id")?,
                problem_version: row.try_get("version")?,
                input: row.try_get("input")?,
            })
        })
        .transpose()
    }
}
