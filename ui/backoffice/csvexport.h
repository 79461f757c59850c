#pragma once

#include "answer.h"
#include "apierror.h"
#include "entities/transactionsummary.h"
#include "historymodel.h"
#include "money.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QThread>

#include <memory>

class QSaveFile;
class ApiClient;
class CsvWriter;

/// Exports every transaction matching a history filter (all pages, not only the rows a view has
/// loaded) to a CSV file (RFC 4180: comma separated, CRLF line ends, fields with a comma, quote
/// or line break in double quotes with inner quotes doubled; money as plain rupees "249.00").
/// The pages are fetched asynchronously through the screen's ApiClient; formatting and writing
/// run in a worker thread. cancel() stops it and deletes the partial file.
class CsvExport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CsvExport)

public:
    CsvExport(ApiClient &api, const HistoryFilter &filter, const QString &path, QObject *parent = nullptr);
    ~CsvExport() override;

    /// Starts: asks the summary endpoint for the row count (total()), then writes page by page.
    void start();
    /// Stops at once: aborts the request in flight, deletes the partial file; emits cancelled().
    void cancel();
    /// Rows the filter matches (from the summary endpoint); -1 until known.
    qint64 total() const { return m_total; }
    /// Rows written so far.
    qint64 written() const { return m_written; }

    /// The header line's fields: the spec's field names, except that `paid` is "wallet_debit" (bill − discount, what
    /// the wallet paid; a person reading the sheet would take "paid" for what the customer paid, issue 27), then
    /// "tender" (issue 28: how the customer paid, "cash", "upi", or empty when the sale recorded none).
    static QStringList header();
    /// The fields of one spec transaction record, in header() order.
    static QStringList fields(const TransactionRecord &record);
    /// One CSV line (with CRLF) of `fields`, quoted as RFC 4180 asks. Text that a spreadsheet
    /// would run as a formula (starting with = + - @) is prefixed with an apostrophe.
    static QString line(const QStringList &fields);
    /// Quotes one field if it holds a comma, double quote, CR or LF.
    static QString quote(const QString &field);
    /// Paise as plain rupees with two decimals and no sign: 24900 -> "249.00", -5 -> "-0.05".
    static QString rupees(Paise amount);

signals:
    void totalKnown(qint64 total);
    void progress(qint64 written);
    /// The file is complete and closed; `rows` data lines were written.
    void finished(qint64 rows);
    /// The export stopped on an error (network, API or file); the partial file is deleted.
    void failed(const QString &message);
    void cancelled();

private:
    void onSummary(const Answer<TransactionSummary> &answer);
    void fetchPage();
    void onPage(const Answer<Page<TransactionRecord>> &answer);
    void onWritten(qint64 rows);
    void onWriterDone(bool ok, const QString &error);
    void stop(bool removeFile);

    ApiClient &m_api;
    HistoryFilter m_filter;
    QString m_path;
    QString m_cursor;
    qint64 m_total = -1;
    qint64 m_written = 0;
    bool m_lastPageSent = false;
    bool m_stopped = false;
    QPointer<ApiCall> m_call;
    QThread m_thread;
    CsvWriter *m_writer = nullptr;
};

/// The worker half of CsvExport: lives in CsvExport's thread, formats records and appends
/// them to the file. Not for use on its own.
class CsvWriter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CsvWriter)

public:
    explicit CsvWriter(const QString &path);
    ~CsvWriter() override;
    /// Creates the file and writes the header; done(false, …) if it cannot.
    void open();
    /// Appends the records; emits written(total rows so far).
    void writePage(const QList<TransactionRecord> &records);
    /// Flushes and closes; done(true) or done(false, …).
    void finish();
    /// Stops writing; the file (written to a temporary name until finish()) never appears, or is
    /// removed if finish() already ran.
    void discard();

signals:
    void written(qint64 rows);
    void done(bool ok, const QString &error);

private:
    bool check();
    QString m_path;
    std::unique_ptr<QSaveFile> m_file;
    bool m_committed = false;
    qint64 m_rows = 0;
    bool m_failed = false;
};
