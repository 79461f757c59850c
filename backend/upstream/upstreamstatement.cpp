#include "upstreamstatement.h"

#include "apierror.h"

#include <QRegularExpression>

namespace {

const QString kCsv = QStringLiteral("csv");
const QString kColumns = QStringLiteral("columns");

/// The header names looked for, by field, normalized (UpstreamStatement::normalized()); for the optional fields the
/// first name found in this order wins.
struct FieldNames
{
    QString field;       ///< the key of `columns`
    QString words;       ///< what it is, in errors
    bool required;       ///< a statement without it is refused
    QStringList aliases; ///< normalized header names
};

const QList<FieldNames> &knownFields()
{
    static const QList<FieldNames> fields{
        {QStringLiteral("reference_id"),
         QStringLiteral("reference id"),
         true,
         {QStringLiteral("referenceid"),
          QStringLiteral("reference"),
          QStringLiteral("refid"),
          QStringLiteral("ref"),
          QStringLiteral("refno"),
          QStringLiteral("referenceno"),
          QStringLiteral("referencenumber"),
          QStringLiteral("clientref"),
          QStringLiteral("clientrefid"),
          QStringLiteral("clientrefno"),
          QStringLiteral("clientreference"),
          QStringLiteral("clientreferenceid"),
          QStringLiteral("clientreferenceno"),
          QStringLiteral("clienttxnid"),
          QStringLiteral("clienttransactionid"),
          QStringLiteral("partnerref"),
          QStringLiteral("partnerrefid"),
          QStringLiteral("partnerreference"),
          QStringLiteral("partnerreferenceid"),
          QStringLiteral("partnertxnid"),
          QStringLiteral("partnertransactionid"),
          QStringLiteral("yourref"),
          QStringLiteral("yourrefid"),
          QStringLiteral("yourreference"),
          QStringLiteral("yourreferenceid"),
          QStringLiteral("merchantref"),
          QStringLiteral("merchantrefid"),
          QStringLiteral("merchantreference"),
          QStringLiteral("merchantreferenceid"),
          QStringLiteral("agentref"),
          QStringLiteral("agentrefid")}},
        {QStringLiteral("status"),
         QStringLiteral("status"),
         true,
         {QStringLiteral("status"), QStringLiteral("transactionstatus"), QStringLiteral("txnstatus"),
          QStringLiteral("rechargestatus")}},
        {QStringLiteral("transaction_id"),
         QStringLiteral("transaction id"),
         false,
         {QStringLiteral("transactionid"), QStringLiteral("txnid"), QStringLiteral("transactionno"),
          QStringLiteral("txnno"), QStringLiteral("transactionnumber"), QStringLiteral("txnnumber")}},
        {QStringLiteral("amount"),
         QStringLiteral("amount"),
         false,
         {QStringLiteral("amount"), QStringLiteral("amountrs"), QStringLiteral("amountinr"),
          QStringLiteral("amountrupees"), QStringLiteral("rechargeamount"), QStringLiteral("txnamount"),
          QStringLiteral("transactionamount"), QStringLiteral("billamount")}},
        {QStringLiteral("date"),
         QStringLiteral("date"),
         false,
         {QStringLiteral("date"), QStringLiteral("datetime"), QStringLiteral("dateandtime"),
          QStringLiteral("transactiondate"), QStringLiteral("transactiondatetime"), QStringLiteral("txndate"),
          QStringLiteral("txndatetime"), QStringLiteral("createdat"), QStringLiteral("createddate"),
          QStringLiteral("timestamp"), QStringLiteral("time"), QStringLiteral("transactiontime"),
          QStringLiteral("txntime")}},
        {QStringLiteral("redeem_code"),
         QStringLiteral("redeem code"),
         false,
         {QStringLiteral("redeemcode"), QStringLiteral("vouchercode"), QStringLiteral("voucherpin")}},
    };
    return fields;
}

[[noreturn]] void refuse(const QString &field, const char *reason, const QString &description)
{
    throw ApiError::badRequest(field, QString::fromLatin1(reason), description);
}

/// One CSV record: its fields as written (quotes removed) and the line it starts on.
struct Record
{
    int line = 0;
    QStringList fields;

    bool isBlank() const
    {
        return std::all_of(fields.cbegin(), fields.cend(), [](const QString &f) { return f.trimmed().isEmpty(); });
    }
};

/// RFC 4180 records of a text, one at a time.
class CsvReader
{
public:
    explicit CsvReader(QStringView text) : m_text(text) {}

    /// The next record; false at the end of the text. Throws ApiError 400 `unterminated_quote`.
    bool next(Record &record)
    {
        if (m_pos >= m_text.size())
            return false;
        record.line = m_line;
        record.fields.clear();
        QString field;
        bool fieldStart = true;
        while (m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            if (fieldStart && c == QLatin1Char('"')) {
                readQuoted(field);
                fieldStart = false;
                continue;
            }
            fieldStart = false;
            if (c == QLatin1Char(',')) {
                record.fields.append(field);
                field.clear();
                fieldStart = true;
                ++m_pos;
                continue;
            }
            if (c == QLatin1Char('\r') || c == QLatin1Char('\n')) {
                skipLineEnd();
                break;
            }
            field.append(c);
            ++m_pos;
        }
        record.fields.append(field);
        return true;
    }

private:
    /// A quoted field from its opening quote to its closing one; the text after the closing quote up to the next
    /// comma or line end is kept as written (as most readers do).
    void readQuoted(QString &field)
    {
        const int opened = m_line;
        ++m_pos;
        for (;;) {
            if (m_pos >= m_text.size())
                refuse(kCsv, "unterminated_quote",
                       QStringLiteral("the quoted field opened on line %1 is never closed (a lone \" in the file?)")
                           .arg(opened));
            const QChar c = m_text.at(m_pos);
            if (c == QLatin1Char('"')) {
                if (m_pos + 1 < m_text.size() && m_text.at(m_pos + 1) == QLatin1Char('"')) {
                    field.append(c);
                    m_pos += 2;
                    continue;
                }
                ++m_pos;
                return;
            }
            if (c == QLatin1Char('\n') || (c == QLatin1Char('\r') && !nextIs(QLatin1Char('\n'))))
                ++m_line;
            field.append(c);
            ++m_pos;
        }
    }

    bool nextIs(QChar c) const { return m_pos + 1 < m_text.size() && m_text.at(m_pos + 1) == c; }

    void skipLineEnd()
    {
        if (m_text.at(m_pos) == QLatin1Char('\r') && nextIs(QLatin1Char('\n')))
            ++m_pos;
        ++m_pos;
        ++m_line;
    }

    QStringView m_text;
    qsizetype m_pos = 0;
    int m_line = 1;
};

/// The header's names, quoted for an error text.
QString listed(const QStringList &header)
{
    QStringList names;
    for (const QString &name : header)
        names.append(QLatin1Char('"') + name.trimmed() + QLatin1Char('"'));
    return names.join(QStringLiteral(", "));
}

/// The index of the column the header calls `name` (normalized), skipping `taken`; -1 when none.
qsizetype columnNamed(const QStringList &normalizedHeader, const QString &name, const QList<qsizetype> &taken)
{
    for (qsizetype i = 0; i < normalizedHeader.size(); ++i) {
        if (!taken.contains(i) && !name.isEmpty() && normalizedHeader.at(i) == name)
            return i;
    }
    return -1;
}

} // namespace

qint64 StatementRow::upstreamId() const
{
    static const QRegularExpression digits(QStringLiteral("^[0-9]{1,18}$"));
    return digits.match(transactionId).hasMatch() ? transactionId.toLongLong() : 0;
}

const QStringList &UpstreamStatement::fieldNames()
{
    static const QStringList names = [] {
        QStringList list;
        for (const FieldNames &field : knownFields())
            list.append(field.field);
        return list;
    }();
    return names;
}

QString UpstreamStatement::normalized(const QString &name)
{
    QString out;
    out.reserve(name.size());
    for (const QChar c : name) {
        if (c.isLetterOrNumber())
            out.append(c.toLower());
    }
    return out;
}

std::optional<TransactionStatus> UpstreamStatement::statusFromWord(const QString &word)
{
    static const QMap<QString, TransactionStatus> words{
        {QStringLiteral("success"), TransactionStatus::Success},
        {QStringLiteral("successful"), TransactionStatus::Success},
        {QStringLiteral("completed"), TransactionStatus::Success},
        {QStringLiteral("credited"), TransactionStatus::Success},
        {QStringLiteral("failed"), TransactionStatus::Failed},
        {QStringLiteral("failure"), TransactionStatus::Failed},
        {QStringLiteral("refunded"), TransactionStatus::Failed},
        {QStringLiteral("reversed"), TransactionStatus::Failed},
        {QStringLiteral("rejected"), TransactionStatus::Failed},
        {QStringLiteral("pending"), TransactionStatus::Pending},
        {QStringLiteral("processing"), TransactionStatus::Pending},
        {QStringLiteral("inprogress"), TransactionStatus::Pending},
        {QStringLiteral("initiated"), TransactionStatus::Pending},
    };
    const auto found = words.constFind(normalized(word));
    if (found == words.cend())
        return std::nullopt;
    return *found;
}

std::optional<Paise> UpstreamStatement::amountFromText(const QString &text)
{
    QString rest = text.trimmed();
    if (rest.startsWith(QChar(0x20B9)))
        rest = rest.mid(1);
    else if (rest.startsWith(QLatin1String("INR"), Qt::CaseInsensitive))
        rest = rest.mid(3);
    else if (rest.startsWith(QLatin1String("Rs."), Qt::CaseInsensitive))
        rest = rest.mid(3);
    else if (rest.startsWith(QLatin1String("Rs"), Qt::CaseInsensitive))
        rest = rest.mid(2);
    rest.remove(QLatin1Char(','));
    rest.remove(QLatin1Char(' '));
    static const QRegularExpression rupees(QStringLiteral("^([0-9]{1,9})(?:\\.([0-9]{1,2}))?$"));
    const QRegularExpressionMatch match = rupees.match(rest);
    if (!match.hasMatch())
        return std::nullopt;
    const QString fraction = match.captured(2).leftJustified(2, QLatin1Char('0'));
    return match.captured(1).toLongLong() * Money::kPaisePerRupee + fraction.toLongLong();
}

QMap<QString, QString> UpstreamStatement::columnsFromText(const QString &text)
{
    QMap<QString, QString> columns;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype equals = part.indexOf(QLatin1Char('='));
        const QString field = equals < 0 ? QString() : part.left(equals).trimmed();
        const QString name = equals < 0 ? QString() : part.mid(equals + 1).trimmed();
        if (field.isEmpty() || name.isEmpty())
            refuse(kColumns, "bad_columns",
                   QStringLiteral("\"%1\" is not FIELD=HEADER NAME (e.g. reference_id=My Ref,status=State)")
                       .arg(part.trimmed()));
        if (columns.contains(field))
            refuse(kColumns, "bad_columns", QStringLiteral("%1 is mapped twice").arg(field));
        columns.insert(field, name);
    }
    return columns;
}

UpstreamStatement UpstreamStatement::parse(QByteArrayView csv, const QMap<QString, QString> &columns)
{
    for (auto it = columns.cbegin(); it != columns.cend(); ++it) {
        if (!fieldNames().contains(it.key()))
            refuse(kColumns, "unknown_column_field",
                   QStringLiteral("columns maps \"%1\", which is none of %2").arg(it.key(), fieldNames().join(u", ")));
    }
    if (csv.startsWith("\xFF\xFE") || csv.startsWith("\xFE\xFF") || csv.contains('\0'))
        refuse(kCsv, "not_utf8",
               QStringLiteral("the statement is not UTF-8 text (UTF-16?): export or save it as \"CSV UTF-8\""));
    if (csv.startsWith("\xEF\xBB\xBF"))
        csv = csv.sliced(3);
    const QString text = QString::fromUtf8(csv);
    CsvReader reader(text);

    Record header;
    while (reader.next(header) && header.isBlank()) {
    }
    if (header.fields.isEmpty() || header.isBlank())
        refuse(kCsv, "no_header",
               QStringLiteral("the statement is empty: its first line must be a header naming the columns (reference "
                              "id, status, …)"));
    QStringList names;
    for (const QString &name : header.fields)
        names.append(normalized(name));

    // The columns mapped by hand first, then the others by their usual names among the columns left.
    UpstreamStatement statement;
    QMap<QString, qsizetype> at;
    QList<qsizetype> taken;
    for (auto it = columns.cbegin(); it != columns.cend(); ++it) {
        const qsizetype index = columnNamed(names, normalized(it.value()), {});
        if (index < 0)
            refuse(kColumns + QLatin1Char('.') + it.key(), "column_not_found",
                   QStringLiteral("columns.%1 names \"%2\", which the header does not have (it has %3)")
                       .arg(it.key(), it.value(), listed(header.fields)));
        at.insert(it.key(), index);
        taken.append(index);
    }
    for (const FieldNames &field : knownFields()) {
        if (at.contains(field.field))
            continue;
        QList<qsizetype> found;
        for (const QString &alias : field.aliases) {
            for (qsizetype i = 0; i < names.size(); ++i) {
                if (names.at(i) == alias && !taken.contains(i) && !found.contains(i))
                    found.append(i);
            }
        }
        if (found.isEmpty()) {
            if (field.required)
                refuse(kCsv, field.field == QLatin1String("status") ? "no_status_column" : "no_reference_column",
                       QStringLiteral("no column of the header is the %1 (it has %2): name it with columns.%3, e.g. "
                                      "--columns %3=\"Header Name\"")
                           .arg(field.words, listed(header.fields), field.field));
            continue;
        }
        if (field.required && found.size() > 1)
            refuse(kCsv, "ambiguous_column",
                   QStringLiteral("columns \"%1\" and \"%2\" could both be the %3: name the right one with columns.%4")
                       .arg(header.fields.at(found.at(0)).trimmed(), header.fields.at(found.at(1)).trimmed(),
                            field.words, field.field));
        at.insert(field.field, found.first());
        taken.append(found.first());
    }
    for (auto it = at.cbegin(); it != at.cend(); ++it)
        statement.m_columns.insert(it.key(), header.fields.at(it.value()).trimmed());

    const auto cell = [&at](const Record &record, const char *field) {
        const qsizetype index = at.value(QLatin1String(field), -1);
        return index < 0 ? QString() : record.fields.at(index).trimmed();
    };
    Record record;
    while (reader.next(record)) {
        if (record.isBlank())
            continue;
        if (record.fields.size() != header.fields.size())
            refuse(kCsv, "field_count",
                   QStringLiteral("line %1 has %2 fields but the header has %3 (a comma inside a field must be in "
                                  "double quotes)")
                       .arg(record.line)
                       .arg(record.fields.size())
                       .arg(header.fields.size()));
        if (statement.m_rows.size() >= kMaxRows)
            refuse(kCsv, "too_many_rows",
                   QStringLiteral("the statement has more than %1 rows: split it into smaller files").arg(kMaxRows));
        StatementRow row;
        row.line = record.line;
        row.referenceId = cell(record, "reference_id");
        row.statusText = cell(record, "status");
        row.transactionId = cell(record, "transaction_id");
        row.amountText = cell(record, "amount");
        row.date = cell(record, "date");
        row.redeemCode = cell(record, "redeem_code");
        row.status = statusFromWord(row.statusText);
        if (!row.amountText.isEmpty())
            row.amount = amountFromText(row.amountText);
        if (row.referenceId.isEmpty() && row.upstreamId() == 0)
            row.problem = QStringLiteral("no reference id (and no numeric transaction id)");
        else if (row.statusText.isEmpty())
            row.problem = QStringLiteral("no status");
        else if (!row.status)
            row.problem = QStringLiteral("the status \"%1\" is not one this program reads (success, failed, pending "
                                         "or their like)")
                              .arg(row.statusText);
        else if (!row.amountText.isEmpty() && !row.amount)
            row.problem = QStringLiteral("the amount \"%1\" is not an amount in rupees").arg(row.amountText);
        statement.m_rows.append(row);
    }
    return statement;
}
