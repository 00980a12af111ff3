//! docs/SCHEMA.md against the declared tables (`columns!` in `haifu_ingest::batches`,
//! `haifu_mining::tables` and `haifu_style::db`, the lowest crate that sees all three): every table's columns in the doc, their order,
//! types and nullability must be the declared schema's, and the fields of the rounds table's `wins` structs
//! must be the ones its row names.

use arrow::datatypes::{DataType, Field, Schema};
use haifu_ingest::batches::{ChoicesBatch, DecisionsBatch, EventsBatch, GamesBatch, RoundsBatch, WinColumns};
use haifu_ingest::columns::{as_read, Columns, Table};
use haifu_ingest::shapes::ShapesBatch;
use haifu_mining::tables::{PlayersTable, SequencesTable};
use haifu_style::choice::ChoicesTable;
use haifu_style::db::ProfilesTable;
use haifu_style::discards::ModelTable;
use haifu_style::habits::HabitsTable;

const DOC: &str = include_str!("../../docs/SCHEMA.md");

/// One documented column: name, type as the doc writes it (`List<Int32>?`), the meaning.
struct DocColumn {
    name: String,
    ty: String,
    meaning: String,
}

/// A type as docs/SCHEMA.md writes it: Arrow's name, `List<..>`, `Struct`, `?` when nullable.
fn doc_type(f: &Field) -> String {
    fn name(t: &DataType) -> String {
        match t {
            DataType::List(item) => format!("List<{}>", name(item.data_type())),
            DataType::Struct(_) => "Struct".to_string(),
            t => format!("{t:?}"),
        }
    }
    format!("{}{}", name(f.data_type()), if f.is_nullable() { "?" } else { "" })
}

/// The doc's tables: a `## name...` heading followed by a `| column | type | meaning |` table, whose rows
/// may name several columns (`| a, b | Int8 |` or `| a, b | Int8, Utf8 |`).
fn doc_tables(doc: &str) -> Result<Vec<(String, Vec<DocColumn>)>, String> {
    let mut tables: Vec<(String, Vec<DocColumn>)> = Vec::new();
    let mut heading: Option<String> = None;
    for (n, line) in doc.lines().enumerate() {
        if let Some(h) = line.strip_prefix("## ") {
            heading = Some(h.split(':').next().unwrap_or(h).trim().to_string());
            continue;
        }
        let Some(row) = line.strip_prefix('|') else { continue };
        let cells: Vec<&str> = row.splitn(3, '|').map(str::trim).collect();
        if cells.len() < 3 || cells[0] == "column" || cells[0].starts_with("---") {
            continue;
        }
        let table = heading.clone().ok_or(format!("docs/SCHEMA.md line {}: a column table under no heading", n + 1))?;
        if tables.last().is_none_or(|(t, _)| *t != table) {
            tables.push((table.clone(), Vec::new()));
        }
        let names: Vec<&str> = cells[0].split(',').map(str::trim).collect();
        let types: Vec<&str> = cells[1].split(',').map(str::trim).collect();
        if types.len() != 1 && types.len() != names.len() {
            return Err(format!("docs/SCHEMA.md line {}: {} columns but {} types", n + 1, names.len(), types.len()));
        }
        let columns = &mut tables.last_mut().expect("pushed above").1;
        for (i, name) in names.iter().enumerate() {
            let ty = types[if types.len() == 1 { 0 } else { i }];
            columns.push(DocColumn { name: name.to_string(), ty: ty.to_string(), meaning: cells[2].to_string() });
        }
    }
    Ok(tables)
}

/// What differs between a table's documented and declared columns, one line each.
fn differences(table: &str, doc: &[DocColumn], declared: &[Field]) -> Vec<String> {
    let mut out = Vec::new();
    for d in doc {
        match declared.iter().find(|f| f.name() == &d.name) {
            None => out.push(format!("{table}.{}: in docs/SCHEMA.md ({}), not declared", d.name, d.ty)),
            Some(f) if doc_type(f) != d.ty => {
                out.push(format!("{table}.{}: docs/SCHEMA.md says {}, declared {}", d.name, d.ty, doc_type(f)))
            }
            Some(_) => {}
        }
    }
    for f in declared.iter().filter(|f| !doc.iter().any(|d| &d.name == f.name())) {
        out.push(format!("{table}.{}: declared ({}), not in docs/SCHEMA.md", f.name(), doc_type(f)));
    }
    let doc_order: Vec<&str> = doc.iter().map(|d| d.name.as_str()).collect();
    let declared_order: Vec<&str> = declared.iter().map(|f| f.name().as_str()).collect();
    if out.is_empty() && doc_order != declared_order {
        out.push(format!(
            "{table}: columns in another order: docs/SCHEMA.md {doc_order:?}, declared {declared_order:?}"
        ));
    }
    out
}

/// The names in backticks of a `List<Struct>` row's meaning must be the struct's fields, in order.
fn struct_differences(table: &str, doc: &[DocColumn], name: &str, fields: &[Field]) -> Vec<String> {
    let Some(d) = doc.iter().find(|d| d.name == name) else { return Vec::new() };
    let documented: Vec<&str> = d.meaning.split('`').skip(1).step_by(2).collect();
    let declared: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
    if documented == declared {
        return Vec::new();
    }
    vec![format!("{table}.{name}: docs/SCHEMA.md names the fields {documented:?}, declared {declared:?}")]
}

#[test]
fn schema_doc_matches_the_declared_tables() {
    let declared = [
        (GamesBatch::NAME, GamesBatch::fields()),
        (RoundsBatch::NAME, RoundsBatch::fields()),
        (EventsBatch::NAME, EventsBatch::fields()),
        (DecisionsBatch::NAME, DecisionsBatch::fields()),
        (ChoicesBatch::NAME, ChoicesBatch::fields()),
        (ShapesBatch::NAME, ShapesBatch::fields()),
        (SequencesTable::NAME, SequencesTable::fields()),
        (PlayersTable::NAME, PlayersTable::fields()),
        (ProfilesTable::NAME, ProfilesTable::fields()),
        (ChoicesTable::NAME, ChoicesTable::fields()),
        (HabitsTable::NAME, HabitsTable::fields()),
        (ModelTable::NAME, ModelTable::fields()),
    ];
    // the doc describes each table as a reader of the file sees it (a coded text column as text)
    let declared: Vec<(&str, Vec<Field>)> = declared
        .into_iter()
        .map(|(t, fields)| (t, as_read(&Schema::new(fields)).fields().iter().map(|f| f.as_ref().clone()).collect()))
        .collect();
    let documented = doc_tables(DOC).unwrap();
    let mut problems = Vec::new();
    for (table, _) in &documented {
        if !declared.iter().any(|(t, _)| t == table) {
            problems.push(format!("{table}: a table in docs/SCHEMA.md that no `columns!` declares"));
        }
    }
    for (table, fields) in &declared {
        let Some((_, doc)) = documented.iter().find(|(t, _)| t == table) else {
            problems.push(format!("{table}: declared, but docs/SCHEMA.md has no `## {table}` column table"));
            continue;
        };
        problems.extend(differences(table, doc, fields));
        if *table == RoundsBatch::NAME {
            problems.extend(struct_differences(table, doc, "wins", &WinColumns::fields()));
        }
    }
    assert!(problems.is_empty(), "docs/SCHEMA.md and the declared tables differ:\n{}", problems.join("\n"));
}

#[test]
fn a_column_missing_from_the_doc_is_named() {
    let doc = "## t: a table\n\n| column | type | meaning |\n|---|---|---|\n| a, b | Int64, Utf8? | key |\n";
    let tables = doc_tables(doc).unwrap();
    let declared = [
        Field::new("a", DataType::Int64, false),
        Field::new("b", DataType::Utf8, true),
        Field::new("c", DataType::List(Field::new_list_field(DataType::UInt8, true).into()), true),
    ];
    assert_eq!(differences("t", &tables[0].1, &declared), vec!["t.c: declared (List<UInt8>?), not in docs/SCHEMA.md"]);
    assert_eq!(differences("t", &tables[0].1, &declared[..2]), Vec::<String>::new());
    assert_eq!(differences("t", &tables[0].1, &declared[..1]), vec!["t.b: in docs/SCHEMA.md (Utf8?), not declared"]);
}
