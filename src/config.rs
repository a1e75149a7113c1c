//! Configuration files: `.mcp-lint.toml`, `mcp-lint.toml`, or the
//! `[tool.mcp-lint]` table of `pyproject.toml`, found by walking up from each
//! input. Every key is checked when the file is read; an unknown key or a bad
//! value is an error that names the file, line and key.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, Severity};
use crate::protocol::Version;
use crate::select::{self, Selection, Selector};

/// The file names a directory is searched for, in order.
const FILE_NAMES: [&str; 3] = [".mcp-lint.toml", "mcp-lint.toml", "pyproject.toml"];

/// One configuration file, checked.
#[derive(Debug)]
pub struct Config {
    pub path: PathBuf,
    /// Globs are relative to the directory the file is in.
    pub root: PathBuf,
    pub selection: Selection,
    pub exclude: GlobSet,
    pub per_file_ignores: Vec<PerFileIgnore>,
    pub fail_on: Option<Severity>,
    pub protocol_version: Option<Version>,
    pub policy: Policy,
}

/// The `[policy]` table: choices the spec leaves to the reader of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Whether a message for a cancelled request that may have crossed the
    /// cancellation (a response, a progress notification) is reported.
    pub report_crossed_cancellations: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            report_crossed_cancellations: true,
        }
    }
}

impl Policy {
    /// Whether the policy lets a finding be reported.
    pub fn reports(&self, diagnostic: &Diagnostic) -> bool {
        self.report_crossed_cancellations || !diagnostic.may_have_crossed
    }
}

/// Rules that do not apply to some files, and why.
#[derive(Debug)]
pub struct PerFileIgnore {
    pub glob: GlobSet,
    pub rules: Vec<Selector>,
    pub reason: String,
}

/// The keys of the file, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    select: Option<Vec<Spanned<String>>>,
    extend_select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    severity: Option<HashMap<String, Spanned<String>>>,
    exclude: Option<Vec<Spanned<String>>>,
    per_file_ignores: Option<Vec<Spanned<RawPerFileIgnore>>>,
    fail_on: Option<Spanned<String>>,
    protocol_version: Option<Spanned<String>>,
    policy: Option<RawPolicy>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawPolicy {
    report_crossed_cancellations: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPerFileIgnore {
    glob: Spanned<String>,
    rules: Vec<Spanned<String>>,
    /// Required; read as optional so that its absence is worded like the other errors.
    reason: Option<Spanned<String>>,
}

/// `pyproject.toml`: only its `[tool.mcp-lint]` table is read.
#[derive(Deserialize)]
struct Pyproject {
    tool: Option<PyprojectTool>,
}

#[derive(Deserialize)]
struct PyprojectTool {
    #[serde(rename = "mcp-lint")]
    mcp_lint: Option<RawConfig>,
}

/// A configuration error, worded `path:line: problem`.
#[derive(Debug)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a span of a file is, for messages: `path:line:column`.
struct Place<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Place<'_> {
    fn error(&self, span: Range<usize>, message: impl std::fmt::Display) -> ConfigError {
        let before = &self.text[..span.start.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let path = crate::sanitize::escape_controls(&self.path.to_string_lossy()).into_owned();
        ConfigError(format!("{path}:{line}:{column}: {message}"))
    }

    fn toml_error(&self, error: toml::de::Error) -> ConfigError {
        let span = error.span().unwrap_or(0..0);
        let message = error.message().trim_end().replace('\n', " ");
        match self.key_at(span.start) {
            Some(key) if !message.contains(&format!("`{key}`")) => {
                self.error(span, format!("{key}: {message}"))
            }
            _ => self.error(span, message),
        }
    }

    /// The key a `key = value` line at `offset` sets, to name it in an error.
    fn key_at(&self, offset: usize) -> Option<&str> {
        let start = self.text.get(..offset)?.rfind('\n').map_or(0, |at| at + 1);
        let line = self.text[start..].lines().next()?;
        let key = line.split_once('=')?.0.trim();
        let bare = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
        (!key.is_empty() && key.chars().all(bare)).then_some(key)
    }
}

impl Config {
    /// Reads and checks a configuration file. `Ok(None)` for a
    /// `pyproject.toml` without a `[tool.mcp-lint]` table.
    pub fn load(path: &Path) -> Result<Option<Config>, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            ConfigError(format!(
                "{}: cannot read the configuration: {e}",
                crate::sanitize::escape_controls(&path.to_string_lossy())
            ))
        })?;
        let place = Place { path, text: &text };
        let raw = if path.file_name().is_some_and(|n| n == "pyproject.toml") {
            let pyproject: Pyproject = toml::from_str(&text).map_err(|e| place.toml_error(e))?;
            match pyproject.tool.and_then(|t| t.mcp_lint) {
                Some(raw) => raw,
                None => return Ok(None),
            }
        } else {
            toml::from_str(&text).map_err(|e| place.toml_error(e))?
        };
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let root = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
        Config::check(raw, &place, absolute, root).map(Some)
    }

    fn check(
        raw: RawConfig,
        place: &Place,
        path: PathBuf,
        root: PathBuf,
    ) -> Result<Config, ConfigError> {
        let selectors = |key: &str, list: Option<Vec<Spanned<String>>>| {
            list.map(|list| selectors(place, key, &list)).transpose()
        };
        let selection = Selection {
            select: selectors("select", raw.select)?,
            extend_select: selectors("extend-select", raw.extend_select)?.unwrap_or_default(),
            ignore: selectors("ignore", raw.ignore)?.unwrap_or_default(),
            severity: severities(place, raw.severity.unwrap_or_default())?,
        };
        let per_file_ignores = raw
            .per_file_ignores
            .unwrap_or_default()
            .into_iter()
            .map(|entry| per_file_ignore(place, entry))
            .collect::<Result<_, _>>()?;
        Ok(Config {
            path,
            root,
            selection,
            exclude: globs(place, "exclude", &raw.exclude.unwrap_or_default())?,
            per_file_ignores,
            fail_on: raw
                .fail_on
                .map(|level| checked(place, "fail-on", &level, select::parse_severity))
                .transpose()?,
            protocol_version: raw
                .protocol_version
                .map(|v| checked(place, "protocol-version", &v, parse_version))
                .transpose()?,
            policy: policy(raw.policy),
        })
    }

    /// The path of `file` relative to this configuration's directory, for globs.
    fn relative(&self, file: &Path) -> Option<PathBuf> {
        let absolute = std::path::absolute(file).ok()?;
        absolute
            .strip_prefix(&self.root)
            .ok()
            .map(Path::to_path_buf)
    }

    /// Whether `exclude` leaves a file out.
    pub fn excludes(&self, file: &Path) -> bool {
        self.relative(file)
            .is_some_and(|relative| self.exclude.is_match(relative))
    }

    /// Whether a per-file-ignores entry switches a finding off in `file`.
    pub fn ignores(&self, file: &Path, diagnostic: &Diagnostic) -> bool {
        let Some(relative) = self.relative(file) else {
            return false;
        };
        self.per_file_ignores.iter().any(|entry| {
            entry.glob.is_match(&relative) && entry.rules.iter().any(|s| s.matches(diagnostic.rule))
        })
    }
}

/// The policy, each key the file leaves out at its default.
fn policy(raw: Option<RawPolicy>) -> Policy {
    let default = Policy::default();
    let Some(raw) = raw else {
        return default;
    };
    Policy {
        report_crossed_cancellations: raw
            .report_crossed_cancellations
            .unwrap_or(default.report_crossed_cancellations),
    }
}

/// Checks one value with `parse`, naming the key and line when it fails.
fn checked<T>(
    place: &Place,
    key: &str,
    value: &Spanned<String>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<T, ConfigError> {
    parse(value.get_ref()).map_err(|e| place.error(value.span(), format!("{key}: {e}")))
}

fn selectors(
    place: &Place,
    key: &str,
    list: &[Spanned<String>],
) -> Result<Vec<Selector>, ConfigError> {
    list.iter()
        .map(|s| checked(place, key, s, Selector::parse))
        .collect()
}

fn severities(
    place: &Place,
    table: HashMap<String, Spanned<String>>,
) -> Result<Vec<(Selector, Severity)>, ConfigError> {
    let mut overrides: Vec<(usize, Selector, Severity)> = Vec::new();
    for (key, level) in &table {
        let selector = checked(place, "severity", level, |_| Selector::parse(key))?;
        let severity = checked(
            place,
            &format!("severity.{key}"),
            level,
            select::parse_severity,
        )?;
        overrides.push((level.span().start, selector, severity));
    }
    // In the order of the file, so the later of two equal overrides wins.
    overrides.sort_by_key(|(at, ..)| *at);
    Ok(overrides.into_iter().map(|(_, s, l)| (s, l)).collect())
}

fn per_file_ignore(
    place: &Place,
    raw: Spanned<RawPerFileIgnore>,
) -> Result<PerFileIgnore, ConfigError> {
    let span = raw.span();
    let raw = raw.into_inner();
    let reason = raw
        .reason
        .as_ref()
        .map(|r| r.get_ref().trim())
        .unwrap_or("");
    if reason.is_empty() {
        let at = raw.reason.as_ref().map_or(span, |r| r.span());
        return Err(place.error(
            at,
            "per-file-ignores: reason is required: say why these rules do not apply to these files",
        ));
    }
    Ok(PerFileIgnore {
        glob: globs(
            place,
            "per-file-ignores.glob",
            std::slice::from_ref(&raw.glob),
        )?,
        rules: selectors(place, "per-file-ignores.rules", &raw.rules)?,
        reason: reason.to_string(),
    })
}

/// Globs match paths relative to the configuration's directory; `*` does not
/// cross a `/` (`**` does), and a glob without a `/` matches a file name anywhere.
fn globs(place: &Place, key: &str, list: &[Spanned<String>]) -> Result<GlobSet, ConfigError> {
    let mut set = GlobSetBuilder::new();
    for pattern in list {
        let text = pattern.get_ref().trim_start_matches("./");
        let anywhere = format!("**/{text}");
        let text = if text.contains('/') { text } else { &anywhere };
        let glob: Glob = GlobBuilder::new(text)
            .literal_separator(true)
            .build()
            .map_err(|e| place.error(pattern.span(), format!("{key}: {e}")))?;
        set.add(glob);
        // A directory excludes what is below it.
        if let Ok(below) = GlobBuilder::new(&format!("{text}/**")).build() {
            set.add(below);
        }
    }
    set.build().map_err(|e| ConfigError(format!("{key}: {e}")))
}

/// Reads a protocol version, naming the known ones when it is none of them.
pub fn parse_version(text: &str) -> Result<Version, String> {
    Version::parse(text).ok_or_else(|| {
        let known: Vec<&str> = Version::ALL.iter().map(|v| v.as_str()).collect();
        format!("not a protocol version (known: {})", known.join(", "))
    })
}

/// Finds the configuration of each input, reading each file once.
pub struct Resolver {
    /// `--config FILE`: one configuration for every input.
    fixed: Option<Option<Arc<Config>>>,
    /// Directory -> the configuration that applies there.
    found: HashMap<PathBuf, Option<Arc<Config>>>,
}

impl Resolver {
    /// `--isolated` reads no file; `--config FILE` reads that one only.
    pub fn new(config: Option<&Path>, isolated: bool) -> Result<Resolver, ConfigError> {
        let fixed = match (config, isolated) {
            (_, true) => Some(None),
            (Some(path), false) => Some(Some(Arc::new(Config::load(path)?.ok_or_else(|| {
                ConfigError(format!(
                    "{}: has no [tool.mcp-lint] table",
                    path.to_string_lossy()
                ))
            })?))),
            (None, false) => None,
        };
        Ok(Resolver {
            fixed,
            found: HashMap::new(),
        })
    }

    /// The configuration for an input at `path` (a file or a directory).
    pub fn for_path(&mut self, path: &Path) -> Result<Option<Arc<Config>>, ConfigError> {
        if let Some(fixed) = &self.fixed {
            return Ok(fixed.clone());
        }
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let start = if absolute.is_dir() {
            absolute.as_path()
        } else {
            absolute.parent().unwrap_or(Path::new("/"))
        };
        self.for_dir(start)
    }

    fn for_dir(&mut self, dir: &Path) -> Result<Option<Arc<Config>>, ConfigError> {
        if let Some(found) = self.found.get(dir) {
            return Ok(found.clone());
        }
        let mut found = None;
        for name in FILE_NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                if let Some(config) = Config::load(&candidate)? {
                    found = Some(Arc::new(config));
                    break;
                }
            }
        }
        if found.is_none() {
            if let Some(parent) = dir.parent() {
                found = self.for_dir(parent)?;
            }
        }
        self.found.insert(dir.to_path_buf(), found.clone());
        Ok(found)
    }
}
