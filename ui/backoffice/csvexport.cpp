#include "csvexport.h"

#include "clock.h"
#include "csvtext.h"
#include "transactionsapi.h"

#include <QFile>
#include <QSaveFile>

CsvExport::CsvExport(ApiClient &api, const HistoryFilter &filter, const QString &path, QObject *parent)
    : QObject(parent), m_api(api), m_filter(filter), m_path(path)
{
    m_thread.setObjectName(QStringLiteral("csv-export"));
}

CsvExport::~CsvExport()
{
    stop(true);
}

void CsvExport::start()
{
    m_writer = new CsvWriter(m_path);
    m_writer->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_writer, &QObject::deleteLater);
    connect(m_writer, &CsvWriter::written, this, &CsvExport::onWritten);
    connect(m_writer, &CsvWriter::done, this, &CsvExport::onWriterDone);
    m_thread.start();
    QMetaObject::invokeMethod(m_writer, &CsvWriter::open, Qt::QueuedConnection);
    m_call = TransactionsApi(m_api).summary(m_filter).then(
        this, [this](const Answer<TransactionSummary> &answer) { onSummary(answer); });
}

void CsvExport::cancel()
{
    if (m_stopped)
        return;
    stop(true);
    emit cancelled();
}

void CsvExport::stop(bool removeFile)
{
    if (m_stopped)
        return;
    m_stopped = true;
    if (m_call) {
        m_call->abort();
        m_call = nullptr;
    }
    if (m_writer) {
        disconnect(m_writer, nullptr, this, nullptr);
        if (removeFile)
            QMetaObject::invokeMethod(m_writer, &CsvWriter::discard, Qt::QueuedConnection);
        // Quit from inside the worker's queue, so the writes queued before it run first.
        QThread *thread = &m_thread;
        QMetaObject::invokeMethod(
            m_writer, [thread] { thread->quit(); }, Qt::QueuedConnection);
        m_writer = nullptr;
        m_thread.wait(); // the queue holds at most a page or two: a short wait
    }
}

void CsvExport::onSummary(const Answer<TransactionSummary> &answer)
{
    m_call = nullptr;
    if (!answer.ok()) {
        const QString message = answer.error->description();
        stop(true);
        emit failed(message);
        return;
    }
    m_total = answer.value->count;
    emit totalKnown(m_total);
    fetchPage();
}

void CsvExport::fetchPage()
{
    TransactionQuery query = m_filter;
    query.limit = HistoryModel::kPageSize;
    query.cursor = m_cursor;
    m_call = TransactionsApi(m_api).list(query).then(
        this, [this](const Answer<Page<TransactionRecord>> &answer) { onPage(answer); });
}

void CsvExport::onPage(const Answer<Page<TransactionRecord>> &answer)
{
    m_call = nullptr;
    if (!answer.ok()) {
        const QString message = answer.error->description();
        stop(true);
        emit failed(message);
        return;
    }
    const QList<TransactionRecord> items = answer.value->items;
    m_cursor = answer.value->nextCursor;
    CsvWriter *writer = m_writer;
    QMetaObject::invokeMethod(
        writer, [writer, items] { writer->writePage(items); }, Qt::QueuedConnection);
    if (m_cursor.isEmpty()) {
        m_lastPageSent = true;
        QMetaObject::invokeMethod(m_writer, &CsvWriter::finish, Qt::QueuedConnection);
        return;
    }
    fetchPage(); // the next page downloads while the worker writes this one
}

void CsvExport::onWritten(qint64 rows)
{
    m_written = rows;
    emit progress(rows);
}

void CsvExport::onWriterDone(bool ok, const QString &error)
{
    if (ok && !m_lastPageSent)
        return; // open() succeeded
    if (!ok) {
        stop(true);
        emit failed(error);
        return;
    }
    stop(false);
    emit finished(m_written);
}

QStringList CsvExport::header()
{
    return {QStringLiteral("transaction_id"),     QStringLiteral("datetime"),     QStringLiteral("type"),
            QStringLiteral("operator"),           QStringLiteral("number"),       QStringLiteral("customer_email"),
            QStringLiteral("bill_amount"),        QStringLiteral("discount"),     QStringLiteral("wallet_debit"),
            QStringLiteral("transaction_status"), QStringLiteral("reference_id"), QStringLiteral("tender")};
}

QStringList CsvExport::fields(const TransactionRecord &record)
{
    const bool voucher = record.type == TransactionType::Voucher;
    return {QString::number(record.transactionId),
            IstTime::formatMs(record.createdAtMs),
            TransactionNames::type(record.type),
            record.operatorName,
            voucher ? QString() : record.number,
            voucher ? record.customerEmail : QString(),
            rupees(record.billAmount),
            rupees(record.discount),
            rupees(record.paid),
            TransactionNames::status(record.status),
            record.referenceId,
            record.tender};
}

QString CsvExport::quote(const QString &field)
{
    return CsvText::quote(field);
}

QString CsvExport::line(const QStringList &fields)
{
    return CsvText::line(fields);
}

QString CsvExport::rupees(Paise amount)
{
    return CsvText::rupees(amount);
}

CsvWriter::CsvWriter(const QString &path) : m_path(path), m_file(std::make_unique<QSaveFile>(path))
{}

CsvWriter::~CsvWriter() = default;

bool CsvWriter::check()
{
    if (m_failed)
        return false;
    if (m_file->error() != QFileDevice::NoError) {
        m_failed = true;
        const QString message = m_file->errorString();
        m_file->cancelWriting();
        emit done(false, message);
        return false;
    }
    return true;
}

void CsvWriter::open()
{
    if (!m_file->open(QIODevice::WriteOnly)) {
        m_failed = true;
        emit done(false, m_file->errorString());
        return;
    }
    m_file->write(CsvExport::line(CsvExport::header()).toUtf8());
    if (check())
        emit done(true, {});
}

void CsvWriter::writePage(const QList<TransactionRecord> &records)
{
    if (m_failed || !m_file->isOpen())
        return;
    QByteArray chunk;
    chunk.reserve(records.size() * 120);
    for (const TransactionRecord &record : records)
        chunk += CsvExport::line(CsvExport::fields(record)).toUtf8();
    m_file->write(chunk);
    if (!check())
        return;
    m_rows += records.size();
    emit written(m_rows);
}

void CsvWriter::finish()
{
    if (m_failed)
        return;
    if (!m_file->commit()) {
        m_failed = true;
        emit done(false, m_file->errorString());
        return;
    }
    m_committed = true;
    emit done(true, {});
}

void CsvWriter::discard()
{
    if (m_file->isOpen())
        m_file->cancelWriting();
    // Cancelled after the last page was already committed (the answer was on its way): remove it.
    if (m_committed)
        QFile::remove(m_path);
    m_failed = true;
}
