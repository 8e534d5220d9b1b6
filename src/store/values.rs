//! How typed values are stored: each as the text a user sees in answers, so the database
//! stays readable with `sqlite3` and a value never depends on an enum's declaration order.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::model::{DefKind, ImportKind, Receiver, Resolution};

impl ToSql for Resolution {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for Resolution {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let s = value.as_str()?;
        Resolution::parse(s)
            .ok_or_else(|| FromSqlError::Other(format!("unknown resolution {s:?}").into()))
    }
}

/// A receiver is stored as its type name, or as the called expression followed by `()`.
impl ToSql for Receiver {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.encode()))
    }
}

impl FromSql for Receiver {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        Ok(Receiver::decode(value.as_str()?))
    }
}

impl ToSql for ImportKind {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for ImportKind {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let s = value.as_str()?;
        ImportKind::parse(s)
            .ok_or_else(|| FromSqlError::Other(format!("unknown import kind {s:?}").into()))
    }
}

/// A definition's kind as `symbols.kind` stores it.
impl FromSql for DefKind {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let s = value.as_str()?;
        DefKind::parse(s).ok_or_else(|| FromSqlError::Other(format!("unknown kind {s:?}").into()))
    }
}
