//! `nimjudge token create|list|revoke`: tokens straight in the daemon's
//! database, for the first admin and for when the API is not at hand.
//!
//! The rules are the API's ([`Operator::issue_token`] shares them): the
//! same name check, the same lifetime rule, and a name is one user with one
//! role.

use std::process::ExitCode;

use anyhow::bail;
use clap::Subcommand;

use super::{ConfigArg, tables};
use crate::{
    app::operator::Operator,
    config::Config,
    domain::{Role, Timestamp, TokenId},
    store::Revocation,
};

#[derive(Debug, Subcommand)]
pub enum TokenAction {
    /// Create a token and print its secret (stored hashed; shown once).
    Create {
        /// The user's name, exactly as given: 1 to 64 characters, no control
        /// characters, no space at either end.
        #[arg(long)]
        name: String,
        /// contestant, setter or admin.
        #[arg(long)]
        role: Role,
        /// Lifetime: a number with a unit, s, m, h or d (`90m`, `30d`); a bare
        /// number is seconds. Left out, the token works until revoked.
        #[arg(long, value_parser = parse_lifetime)]
        expires_in: Option<u64>,
        #[command(flatten)]
        config: ConfigArg,
    },
    /// List every token (never its secret), with its expiry and revocation.
    List {
        /// JSON lines instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        config: ConfigArg,
    },
    /// Revoke a token by its number (from `token list`): it stops working at once.
    Revoke {
        id: TokenId,
        #[command(flatten)]
        config: ConfigArg,
    },
}

impl clap::ValueEnum for Role {
    fn value_variants<'a>() -> &'a [Self] {
        Role::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

/// Parses a lifetime such as `30d`, `12h`, `90m`, `45s` or `3600` into
/// seconds.
fn parse_lifetime(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "s"),
    };
    let scale = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 60 * 60,
        "d" => 24 * 60 * 60,
        _ => return Err(format!("`{text}`: the unit must be s, m, h or d")),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| format!("`{text}` is not a number of s, m, h or d"))
}

/// Opens the daemon's database. A token in a database the daemon does not
/// use would be useless, so a missing one is never created here.
async fn open(config: &ConfigArg) -> anyhow::Result<Operator> {
    let config = Config::load(config.config.as_deref())?;
    Ok(Operator::open(&config.database).await?)
}

pub async fn run(action: TokenAction) -> anyhow::Result<ExitCode> {
    match action {
        TokenAction::Create {
            name,
            role,
            expires_in,
            config,
        } => {
            let operator = open(&config).await?;
            let issued = operator.issue_token(&name, role, expires_in).await;
            let store = operator.describe();
            operator.close().await;
            let issued = issued?;
            let expires_at = issued.expires_at;
            let until = expires_at.map_or("until revoked".to_string(), |at| format!("until {at}"));
            eprintln!(
                "created {role} token {} for {name} ({until}) in {}",
                issued.id, store
            );
            println!("{}", issued.secret);
        }
        TokenAction::List { json, config } => {
            let operator = open(&config).await?;
            let tokens = operator.tokens().await;
            operator.close().await;
            let tokens = tokens?;
            if json {
                /// A JSON line: the token and its state, as the table has it.
                #[derive(serde::Serialize)]
                struct Listed<'a> {
                    #[serde(flatten)]
                    token: &'a crate::domain::TokenRecord,
                    state: &'static str,
                }
                let now = Timestamp::now();
                for token in &tokens {
                    let state = token.state(now);
                    println!("{}", serde_json::to_string(&Listed { token, state })?);
                }
            } else {
                print!("{}", tables::tokens(&tokens, Timestamp::now()));
            }
        }
        TokenAction::Revoke { id, config } => {
            let operator = open(&config).await?;
            let revoked = operator.revoke_token(id).await;
            operator.close().await;
            match revoked? {
                Revocation::Revoked => eprintln!("revoked token {id}"),
                Revocation::AlreadyRevoked => eprintln!("token {id} was revoked already"),
                Revocation::NotFound => bail!("no token {id}"),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::parse_lifetime;

    #[test]
    fn lifetimes_take_a_unit_or_mean_seconds() {
        assert_eq!(parse_lifetime("45"), Ok(45));
        assert_eq!(parse_lifetime("90m"), Ok(5400));
        assert_eq!(parse_lifetime("12h"), Ok(43_200));
        assert_eq!(parse_lifetime("30d"), Ok(2_592_000));
        for bad in ["", "d", "3w", "1.5h", "-1s", "99999999999999999999d"] {
            assert!(parse_lifetime(bad).is_err(), "{bad}");
        }
    }
}
