#pragma once

#include "entities/shop.h"
#include "entities/shopstatement.h"

#include <QDialog>
#include <QPointer>

#include <functional>
#include <optional>

class ApiCall;
class ApiClient;
class Clock;
class OperatorCatalog;
class QDateEdit;
class QLabel;
class QPushButton;
class QSettings;
class ReportView;

/// Back office → Shops → Statement… (issue 30): a shop's statement for a range of IST days (this month so far by
/// default; at most 366 days) — opening balance, totals, every line with its running balance, closing balance — on
/// screen (ReportView, the first 1,000 lines), as CSV (the server's, every line) and as an A4 PDF (every line). Fields
/// "statementFrom", "statementTo"; buttons "showStatement", "statementCsv", "statementPdf"; file dialogs
/// "statementCsvDialog", "statementPdfDialog"; the message line "statementMessage".
class StatementDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatementDialog)

public:
    static constexpr int kScreenLines = 1000; ///< lines shown on screen
    static constexpr int kPageLines = 5000;   ///< lines per page when the PDF loads them all

    StatementDialog(ApiClient &api, const OperatorCatalog &catalog, const Clock &clock, QSettings &settings,
                    const Shop &shop, const QString &distributor, QWidget *parent = nullptr);

    ReportView *report() const { return m_report; }
    /// The statement on screen, once loaded.
    const std::optional<ShopStatement> &statement() const { return m_statement; }
    /// Loads the statement of the dates shown.
    void load();
    /// Saves the server's CSV of the range shown to `path`; the message line says how it went.
    void exportCsv(const QString &path);
    /// Loads every line of the range shown and writes the A4 PDF to `path`; the message line says how it went.
    void savePdf(const QString &path);

signals:
    /// A statement arrived and is on screen.
    void loaded();

private:
    void onCsvClicked();
    void onPdfClicked();
    /// Asks for a file to save under `suggested` (a QFileDialog named `objectName`) and runs `save` with it.
    void askFile(const QString &objectName, const QString &title, const QString &suggested, const QString &filter,
                 std::function<void(const QString &)> save);
    /// Loads the rest of the range's lines after `statement` and then runs `done` with every line.
    void loadAll(ShopStatement statement, std::function<void(const ShopStatement &)> done);
    void showMessage(const QString &text, bool error);
    void setBusy(bool busy);

    ApiClient &m_api;
    const OperatorCatalog &m_catalog;
    QSettings &m_settings;
    Shop m_shop;
    QString m_distributor;
    QDateEdit *m_from;
    QDateEdit *m_to;
    QPushButton *m_show;
    QPushButton *m_csv;
    QPushButton *m_pdf;
    QLabel *m_message;
    QLabel *m_title;
    ReportView *m_report;
    std::optional<ShopStatement> m_statement;
    QPointer<ApiCall> m_call;
};
