//! Tables declared once: [`columns!`](crate::columns!) takes each column's name, type (which says its
//! nullability) and the expression that takes its value from a row, and makes the Arrow schema, one builder
//! per column and the record batch from that one list. The dataset's tables (`crate::batches`) and the mining
//! tables are declared with it, and a test holds docs/SCHEMA.md against the declarations.
//!
//! Column types are marker types named as in docs/SCHEMA.md: [`Int64`], [`Utf8`], [`List<UInt8>`](List),
//! [`Option<Utf8>`](Option) for a nullable column, [`List<Struct<W>>`](Struct) for a list of structs whose
//! fields are declared with the macro too. A value fills a column when it implements [`Put`] for the column's
//! type, so a nullable value in a column not declared `Option<..>` does not compile.

use std::any::Any;
use std::fmt::{Display, Write};
use std::marker::PhantomData;
use std::sync::Arc;

pub use arrow::array::{ArrayBuilder as Builder, ArrayRef};
use arrow::array::{
    ArrayBuilder, BooleanBuilder, Date32Builder, FixedSizeBinaryBuilder, Float32Builder, Float64Builder, Int16Builder,
    Int32Builder, Int64Builder, Int8Builder, ListBuilder, RecordBatch, StringBuilder, StructArray, UInt16Builder,
    UInt32Builder, UInt64Builder, UInt8Builder,
};
pub use arrow::datatypes::Field;
use arrow::datatypes::{DataType, Schema, SchemaRef};

/// The Arrow type of a column, and the builder that collects its values.
pub trait Column {
    type Builder: ArrayBuilder + Default;
    const NULLABLE: bool;
    fn data_type() -> DataType;
}

/// A column type that may hold nulls as `Option<Self>`.
pub trait Nullable: Column {
    fn append_null(b: &mut Self::Builder);
}

/// A value that fills one cell of a column of type `C`.
pub trait Put<C: Column> {
    fn put(self, b: &mut C::Builder);
}

/// A nullable column: `None` is null.
impl<C: Nullable> Column for Option<C> {
    type Builder = C::Builder;
    const NULLABLE: bool = true;
    fn data_type() -> DataType {
        C::data_type()
    }
}

impl<C: Nullable, V: Put<C>> Put<Option<C>> for Option<V> {
    #[inline]
    fn put(self, b: &mut C::Builder) {
        match self {
            Some(v) => v.put(b),
            None => C::append_null(b),
        }
    }
}

/// A list column. Lists are nullable in the schema, as Arrow's list builders make them and as every table of
/// the project has always declared them; only an `Option<List<..>>` column ever holds a null.
pub struct List<C>(PhantomData<C>);

impl<C: Column> Column for List<C> {
    type Builder = ListBuilder<C::Builder>;
    const NULLABLE: bool = true;
    fn data_type() -> DataType {
        DataType::List(Arc::new(Field::new_list_field(C::data_type(), true)))
    }
}

impl<C: Column> Nullable for List<C> {
    #[inline]
    fn append_null(b: &mut Self::Builder) {
        b.append_null();
    }
}

/// Every item of an iterator, as one list value.
pub struct Each<I>(pub I);

impl<C: Column, I: IntoIterator> Put<List<C>> for Each<I>
where
    I::Item: Put<C>,
{
    #[inline]
    fn put(self, b: &mut ListBuilder<C::Builder>) {
        for v in self.0 {
            v.put(b.values());
        }
        b.append(true);
    }
}

/// A column of structs whose fields are the columns of `W` (declared with `columns!` without a table name).
pub struct Struct<W>(PhantomData<W>);

impl<W: Columns + ArrayBuilder> Column for Struct<W> {
    type Builder = W;
    const NULLABLE: bool = false;
    fn data_type() -> DataType {
        DataType::Struct(W::fields().into())
    }
}

macro_rules! scalars {
    ($($marker:ident($builder:ty, $native:ty)),* $(,)?) => {$(
        #[doc = concat!("An Arrow `", stringify!($marker), "` column of `", stringify!($native), "` values.")]
        pub struct $marker;

        impl Column for $marker {
            type Builder = $builder;
            const NULLABLE: bool = false;
            fn data_type() -> DataType {
                DataType::$marker
            }
        }

        impl Nullable for $marker {
            #[inline]
            fn append_null(b: &mut $builder) {
                b.append_null();
            }
        }

        impl Put<$marker> for $native {
            #[inline]
            fn put(self, b: &mut $builder) {
                b.append_value(self);
            }
        }

        impl Put<List<$marker>> for &[$native] {
            #[inline]
            fn put(self, b: &mut ListBuilder<$builder>) {
                b.values().append_slice(self);
                b.append(true);
            }
        }

        impl Put<List<$marker>> for Vec<$native> {
            #[inline]
            fn put(self, b: &mut ListBuilder<$builder>) {
                <&[$native] as Put<List<$marker>>>::put(self.as_slice(), b);
            }
        }
    )*};
}

scalars!(
    Boolean(BooleanBuilder, bool),
    Int8(Int8Builder, i8),
    Int16(Int16Builder, i16),
    Int32(Int32Builder, i32),
    Int64(Int64Builder, i64),
    UInt8(UInt8Builder, u8),
    UInt16(UInt16Builder, u16),
    UInt32(UInt32Builder, u32),
    UInt64(UInt64Builder, u64),
    Float32(Float32Builder, f32),
    Float64(Float64Builder, f64),
    Date32(Date32Builder, i32),
);

/// An Arrow `Utf8` column.
pub struct Utf8;

impl Column for Utf8 {
    type Builder = StringBuilder;
    const NULLABLE: bool = false;
    fn data_type() -> DataType {
        DataType::Utf8
    }
}

impl Nullable for Utf8 {
    #[inline]
    fn append_null(b: &mut StringBuilder) {
        b.append_null();
    }
}

impl Put<Utf8> for &str {
    #[inline]
    fn put(self, b: &mut StringBuilder) {
        b.append_value(self);
    }
}

impl Put<Utf8> for String {
    #[inline]
    fn put(self, b: &mut StringBuilder) {
        b.append_value(self);
    }
}

/// A value written as text straight into the column (no `String` in between).
pub struct Shown<T>(pub T);

impl<T: Display> Put<Utf8> for Shown<T> {
    #[inline]
    fn put(self, b: &mut StringBuilder) {
        // writing into a string builder cannot fail
        let _ = write!(b, "{}", self.0);
        b.append_value("");
    }
}

/// The three `ArrayBuilder` methods that hand a builder out as `Any`, alike for every builder of this module.
macro_rules! any_methods {
    () => {
        fn as_any(&self) -> &dyn Any {
            self
        }
        fn as_any_mut(&mut self) -> &mut dyn Any {
            self
        }
        fn into_box_any(self: Box<Self>) -> Box<dyn Any> {
            self
        }
    };
}

/// A text column whose rows name one of a few values by index: Arrow `Dictionary(UInt32, Utf8)` in memory,
/// Parquet `STRING` on disk, read back as `Utf8` ([`as_read`]). A row costs a `u32` where a [`Utf8`] row
/// copies its text, which counts when a column repeats a few dozen names over millions of rows. Tables with
/// such columns are written without the Arrow schema hint, so that every reader sees plain text
/// (`haifu_mining::tables::write_parquet`).
pub struct Coded;

/// The values a [`Coded`] column's codes index, built once and shared by every batch.
#[derive(Clone)]
pub struct Names(ArrayRef);

impl Names {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Names {
        Names(Arc::new(arrow::array::StringArray::from_iter_values(names)))
    }
}

/// The builder of a [`Coded`] column: the codes, and the names they index.
#[derive(Default)]
pub struct CodedBuilder {
    codes: Vec<u32>,
    names: Option<ArrayRef>,
}

impl CodedBuilder {
    fn array(&self, codes: Vec<u32>) -> ArrayRef {
        let names = self.names.clone().unwrap_or_else(|| Names::new([]).0);
        let keys = arrow::array::UInt32Array::from(codes);
        // the codes come from the names' own indices (`Code`); a bad one is a bug, not bad input
        Arc::new(arrow::array::DictionaryArray::try_new(keys, names).expect("a code outside its names"))
    }
}

impl ArrayBuilder for CodedBuilder {
    fn len(&self) -> usize {
        self.codes.len()
    }
    fn finish(&mut self) -> ArrayRef {
        let codes = std::mem::take(&mut self.codes);
        self.array(codes)
    }
    fn finish_cloned(&self) -> ArrayRef {
        self.array(self.codes.clone())
    }
    any_methods!();
}

impl Column for Coded {
    type Builder = CodedBuilder;
    const NULLABLE: bool = false;
    fn data_type() -> DataType {
        DataType::Dictionary(Box::new(DataType::UInt32), Box::new(DataType::Utf8))
    }
}

/// Row value of a [`Coded`] column: the index of a name in `names`.
pub struct Code<'a>(pub u32, pub &'a Names);

impl Put<Coded> for Code<'_> {
    #[inline]
    fn put(self, b: &mut CodedBuilder) {
        if !b.names.as_ref().is_some_and(|n| Arc::ptr_eq(n, &self.1 .0)) {
            // a batch's codes index one set of names: a new set starts with the batch
            assert!(b.codes.is_empty(), "one batch of a coded column indexes one set of names");
            b.names = Some(self.1 .0.clone());
        }
        b.codes.push(self.0);
    }
}

/// The schema a reader of a written table sees: each [`Coded`] column as the `Utf8` it is stored as.
pub fn as_read(schema: &Schema) -> SchemaRef {
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|f| match f.data_type() {
            DataType::Dictionary(_, values) => f.as_ref().clone().with_data_type(values.as_ref().clone()),
            _ => f.as_ref().clone(),
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// A column of `N` bytes per row (Arrow `FixedSizeBinary(N)`, Parquet `FIXED_LEN_BYTE_ARRAY`): one value per
/// row where a list would write `N` values with their levels.
pub struct Bytes<const N: usize>;

/// The builder of a [`Bytes`] column (Arrow's needs the width at construction, so it has no `Default`).
pub struct BytesBuilder<const N: usize>(FixedSizeBinaryBuilder);

impl<const N: usize> Default for BytesBuilder<N> {
    fn default() -> Self {
        BytesBuilder(FixedSizeBinaryBuilder::new(N as i32))
    }
}

impl<const N: usize> ArrayBuilder for BytesBuilder<N> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn finish(&mut self) -> ArrayRef {
        Arc::new(self.0.finish())
    }
    fn finish_cloned(&self) -> ArrayRef {
        Arc::new(self.0.finish_cloned())
    }
    any_methods!();
}

impl<const N: usize> Column for Bytes<N> {
    type Builder = BytesBuilder<N>;
    const NULLABLE: bool = false;
    fn data_type() -> DataType {
        DataType::FixedSizeBinary(N as i32)
    }
}

impl<const N: usize> Put<Bytes<N>> for &[u8; N] {
    #[inline]
    fn put(self, b: &mut BytesBuilder<N>) {
        // the width is the builder's own, so the append cannot fail
        let _ = b.0.append_value(self);
    }
}

/// What `columns!` keeps beside the builders: the row count and a text buffer rows may reuse.
#[doc(hidden)]
#[derive(Default)]
pub struct Scratch {
    pub rows: usize,
    pub text: String,
}

/// The builders of a set of columns (a table, or the fields of a struct column).
pub trait Columns: Default {
    /// The columns' Arrow fields, in declaration order.
    fn fields() -> Vec<Field>;
    /// Rows pushed since the last finish.
    fn rows(&self) -> usize;
    /// The columns so far, in order; the builders start empty again.
    fn finish_columns(&mut self) -> Vec<ArrayRef>;
}

/// A table: what a push takes (a game, a mining run), the rows it makes, and the record batch.
pub trait Table: Columns {
    /// The table's name: its directory in the dataset, its heading in docs/SCHEMA.md.
    const NAME: &'static str;
    /// What one push turns into rows: a game (`GameRow`), a mining run.
    type Input<'a>;
    /// Adds the input's rows.
    fn push(&mut self, input: &Self::Input<'_>);
    fn schema() -> SchemaRef {
        Arc::new(Schema::new(Self::fields()))
    }
    fn len(&self) -> usize {
        self.rows()
    }
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The rows so far as a record batch; the builder starts empty again.
    fn finish(&mut self) -> RecordBatch {
        RecordBatch::try_new(Self::schema(), self.finish_columns()).expect("columns match the table schema")
    }
}

#[doc(hidden)]
pub fn field<C: Column>(name: &str) -> Field {
    Field::new(name, C::data_type(), C::NULLABLE)
}

#[doc(hidden)]
pub fn finish<B: ArrayBuilder>(b: &mut B) -> ArrayRef {
    b.finish()
}

#[doc(hidden)]
pub fn finish_cloned<B: ArrayBuilder>(b: &B) -> ArrayRef {
    b.finish_cloned()
}

#[doc(hidden)]
pub fn struct_array<W: Columns>(columns: Vec<ArrayRef>) -> ArrayRef {
    Arc::new(StructArray::new(W::fields().into(), columns, None))
}

#[doc(hidden)]
pub fn as_any<T: Any>(t: &T) -> &dyn Any {
    t
}

#[doc(hidden)]
pub fn as_any_mut<T: Any>(t: &mut T) -> &mut dyn Any {
    t
}

/// Declares a table (with its name) or the fields of a struct column (without), each column once:
///
/// ```text
/// columns! {
///     /// One row per round.
///     pub struct RoundsBatch("rounds") for<'a> |g: GameRow<'a>| {
///         let np = usize::from(g.replayed.info.n_players);    // once per push
///         for r in &g.replayed.rounds;                          // one row each (none: one row per push)
///         let wins = r.wins();                                  // once per row
///     }
///     game_id: Int64 = g.game_id,
///     draw_kind: Option<Utf8> = r.draw_kind(),
///     start_scores: List<Int32> = &r.init.scores[..np],
///     wins: List<Struct<WinColumns>> = Each(wins),
/// }
/// ```
///
/// `|g: T, text|` also lends the rows a reused `&mut String`. A struct column's fields are declared as
/// `pub struct WinColumns for<'a> |a: Agari| { let ..; } who: UInt8 = a.who, ...`: a `&Agari` fills one.
/// No column may be named `scratch` (the compiler says so).
#[macro_export]
macro_rules! columns {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident($table:literal) for<$lt:lifetime> |$g:ident : $input:ty $(, $text:ident)?| {
            $(let $gp:pat = $ge:expr;)*
            $(for $p:pat in $it:expr; $(let $rp:pat = $re:expr;)*)?
        }
        $($col:ident : $ty:ty = $val:expr),+ $(,)?
    ) => {
        $crate::columns!(@builders $(#[$meta])* $vis $name { $($col: $ty),+ });

        impl $crate::columns::Table for $name {
            const NAME: &'static str = $table;
            type Input<$lt> = $input;
            fn push(&mut self, $g: &Self::Input<'_>) {
                $(let $text: &mut String = &mut self.scratch.text;)?
                $(let $gp = $ge;)*
                $crate::columns!(@rows [$($p in $it; $(let $rp = $re;)*)?] {
                    $(<_ as $crate::columns::Put<$ty>>::put($val, &mut self.$col);)+
                    self.scratch.rows += 1;
                });
            }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident for<$lt:lifetime> |$g:ident : $input:ty| {
            $(let $rp:pat = $re:expr;)*
        }
        $($col:ident : $ty:ty = $val:expr),+ $(,)?
    ) => {
        $crate::columns!(@builders $(#[$meta])* $vis $name { $($col: $ty),+ });

        impl<$lt> $crate::columns::Put<$crate::columns::Struct<$name>> for &$lt $input {
            #[inline]
            fn put(self, b: &mut $name) {
                let $g = self;
                $(let $rp = $re;)*
                $(<_ as $crate::columns::Put<$ty>>::put($val, &mut b.$col);)+
                b.scratch.rows += 1;
            }
        }

        impl $crate::columns::Builder for $name {
            fn len(&self) -> usize {
                self.scratch.rows
            }
            fn finish(&mut self) -> $crate::columns::ArrayRef {
                let columns = $crate::columns::Columns::finish_columns(self);
                $crate::columns::struct_array::<Self>(columns)
            }
            fn finish_cloned(&self) -> $crate::columns::ArrayRef {
                $crate::columns::struct_array::<Self>(vec![$($crate::columns::finish_cloned(&self.$col)),+])
            }
            fn as_any(&self) -> &dyn std::any::Any {
                $crate::columns::as_any(self)
            }
            fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
                $crate::columns::as_any_mut(self)
            }
            fn into_box_any(self: Box<Self>) -> Box<dyn std::any::Any> {
                self
            }
        }
    };
    (@builders $(#[$meta:meta])* $vis:vis $name:ident { $($col:ident : $ty:ty),+ }) => {
        $(#[$meta])*
        #[derive(Default)]
        $vis struct $name {
            $($col: <$ty as $crate::columns::Column>::Builder,)+
            scratch: $crate::columns::Scratch,
        }

        impl $crate::columns::Columns for $name {
            fn fields() -> Vec<$crate::columns::Field> {
                vec![$($crate::columns::field::<$ty>(stringify!($col))),+]
            }
            fn rows(&self) -> usize {
                self.scratch.rows
            }
            fn finish_columns(&mut self) -> Vec<$crate::columns::ArrayRef> {
                self.scratch.rows = 0;
                vec![$($crate::columns::finish(&mut self.$col)),+]
            }
        }
    };
    (@rows [] $body:block) => {
        $body
    };
    (@rows [$p:pat in $it:expr; $(let $rp:pat = $re:expr;)*] $body:block) => {
        for $p in $it {
            $(let $rp = $re;)*
            $body
        }
    };
}
