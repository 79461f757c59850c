#include "statementdialog.h"

#include "apiclient.h"
#include "backoffice/backofficeui.h"
#include "backoffice/reportview.h"
#include "clock.h"
#include "shopsapi.h"
#include "statementreport.h"
#include "widgets/look.h"

#include <QDateEdit>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QVBoxLayout>

namespace {

const QString kDirKey = QStringLiteral("shops/statement_dir");

QDateEdit *dateEdit(const QString &name, const QDate &date, QWidget *parent)
{
    auto *edit = new QDateEdit(date, parent);
    edit->setObjectName(name);
    edit->setCalendarPopup(true);
    edit->setDisplayFormat(QStringLiteral("dd MMM yyyy"));
    return edit;
}

} // namespace

StatementDialog::StatementDialog(ApiClient &api, const OperatorCatalog &catalog, const Clock &clock,
                                 QSettings &settings, const Shop &shop, const QString &distributor, QWidget *parent)
    : QDialog(parent), m_api(api), m_catalog(catalog), m_settings(settings), m_shop(shop), m_distributor(distributor),
      m_show(new QPushButton(tr("&Show"), this)), m_csv(new QPushButton(tr("Export &CSV…"), this)),
      m_pdf(new QPushButton(tr("Save &PDF…"), this)), m_message(new QLabel(this)), m_title(new QLabel(this)),
      m_report(new ReportView(this))
{
    setObjectName(QStringLiteral("statementDialog"));
    setWindowTitle(tr("Statement of %1").arg(shop.name));
    const QDate today = IstTime::dateOf(clock.nowUtc());
    m_from = dateEdit(QStringLiteral("statementFrom"), QDate(today.year(), today.month(), 1), this);
    m_to = dateEdit(QStringLiteral("statementTo"), today, this);
    m_to->setMaximumDate(today);
    m_show->setObjectName(QStringLiteral("showStatement"));
    m_csv->setObjectName(QStringLiteral("statementCsv"));
    m_pdf->setObjectName(QStringLiteral("statementPdf"));
    BackOfficeUi::makePrimary(m_show);
    m_message->setObjectName(QStringLiteral("statementMessage"));
    m_message->setWordWrap(true);
    m_message->hide();
    m_title->setObjectName(QStringLiteral("statementTitle"));
    Look::set(m_title, "pageTitle");
    m_title->setText(tr("Statement of %1").arg(shop.name));

    auto *fromLabel = new QLabel(tr("&From"), this);
    fromLabel->setBuddy(m_from);
    auto *toLabel = new QLabel(tr("&To"), this);
    toLabel->setBuddy(m_to);
    auto *close = new QPushButton(tr("Close"), this);
    for (QPushButton *button : {m_csv, m_pdf, close})
        button->setAutoDefault(false);
    auto *bar = new QHBoxLayout;
    bar->addWidget(fromLabel);
    bar->addWidget(m_from);
    bar->addWidget(toLabel);
    bar->addWidget(m_to);
    bar->addWidget(m_show);
    bar->addStretch();
    bar->addWidget(m_csv);
    bar->addWidget(m_pdf);
    bar->addWidget(close);

    auto *content = new QWidget(this);
    auto *column = new QVBoxLayout(content);
    column->addWidget(m_report);
    column->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(BackOfficeUi::scrollArea(content, this), 1);
    resize(1200, 720);
    setTabOrder(m_from, m_to);
    setTabOrder(m_to, m_show);
    setTabOrder(m_show, m_csv);
    setTabOrder(m_csv, m_pdf);
    setTabOrder(m_pdf, close);
    m_from->setFocus();

    connect(m_show, &QPushButton::clicked, this, &StatementDialog::load);
    connect(m_csv, &QPushButton::clicked, this, &StatementDialog::onCsvClicked);
    connect(m_pdf, &QPushButton::clicked, this, &StatementDialog::onPdfClicked);
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    m_csv->setEnabled(false);
    m_pdf->setEnabled(false);
    load();
}

void StatementDialog::setBusy(bool busy)
{
    m_show->setEnabled(!busy);
    m_csv->setEnabled(!busy && m_statement.has_value());
    m_pdf->setEnabled(!busy && m_statement.has_value());
}

void StatementDialog::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    Look::set(m_message, error ? "generalError" : "notice");
    m_message->setVisible(!text.isEmpty());
}

void StatementDialog::load()
{
    if (m_call)
        m_call->abort();
    if (m_from->date() > m_to->date()) {
        showMessage(tr("The first day comes after the last: choose the days again."), true);
        m_from->setFocus();
        return;
    }
    showMessage(QString(), false);
    setBusy(true);
    m_call =
        ShopsApi(m_api)
            .statement(m_shop.id, m_from->date(), m_to->date(), kScreenLines)
            .then(this, [this](const Answer<ShopStatement> &answer) {
                m_call = nullptr;
                if (!answer.ok()) {
                    setBusy(false);
                    showMessage(tr("The statement could not be loaded: %1").arg(answer.error->description()), true);
                    return;
                }
                m_statement = *answer.value;
                m_title->setText(
                    tr("Statement of %1 · %2").arg(m_statement->name, StatementReport::rangeText(*m_statement)));
                m_report->setSections(StatementReport::sections(*m_statement, m_catalog));
                setBusy(false);
                emit loaded();
            });
}

void StatementDialog::askFile(const QString &objectName, const QString &title, const QString &suggested,
                              const QString &filter, std::function<void(const QString &)> save)
{
    QString dir = m_settings.value(kDirKey).toString();
    if (dir.isEmpty())
        dir = QDir::homePath();
    auto *dialog = new QFileDialog(this, title, QDir(dir).filePath(suggested), filter);
    dialog->setObjectName(objectName);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QFileInfo(suggested).suffix());
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this, save = std::move(save)](const QString &path) {
        m_settings.setValue(kDirKey, QFileInfo(path).absolutePath());
        save(path);
    });
    dialog->open();
}

void StatementDialog::onCsvClicked()
{
    if (!m_statement)
        return;
    askFile(QStringLiteral("statementCsvDialog"), tr("Export the statement as CSV"),
            QStringLiteral("statement-%1-%2.csv").arg(m_shop.id).arg(m_statement->to.toString(Qt::ISODate)),
            tr("CSV files (*.csv)"), [this](const QString &path) { exportCsv(path); });
}

void StatementDialog::onPdfClicked()
{
    if (!m_statement)
        return;
    askFile(QStringLiteral("statementPdfDialog"), tr("Save the statement as PDF"),
            QStringLiteral("statement-%1-%2.pdf").arg(m_shop.id).arg(m_statement->to.toString(Qt::ISODate)),
            tr("PDF files (*.pdf)"), [this](const QString &path) { savePdf(path); });
}

void StatementDialog::exportCsv(const QString &path)
{
    if (!m_statement)
        return;
    setBusy(true);
    showMessage(tr("Exporting…"), false);
    ApiCall *call = ShopsApi(m_api).statementCsv(m_shop.id, m_statement->from, m_statement->to);
    connect(call, &ApiCall::finished, this, [this, path](const ApiResult &result) {
        setBusy(false);
        if (!result.ok()) {
            showMessage(tr("The CSV could not be exported: %1").arg(result.error->description()), true);
            return;
        }
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(result.body) != result.body.size() || !file.commit()) {
            showMessage(tr("The CSV could not be saved: %1").arg(file.errorString()), true);
            return;
        }
        showMessage(tr("The statement is saved in %1.").arg(QDir::toNativeSeparators(path)), false);
    });
}

void StatementDialog::loadAll(ShopStatement statement, std::function<void(const ShopStatement &)> done)
{
    if (statement.nextCursor.isEmpty()) {
        done(statement);
        return;
    }
    m_call =
        ShopsApi(m_api)
            .statement(m_shop.id, statement.from, statement.to, kPageLines, statement.nextCursor)
            .then(this, [this, statement, done](const Answer<ShopStatement> &answer) {
                m_call = nullptr;
                if (!answer.ok()) {
                    setBusy(false);
                    showMessage(tr("The statement could not be loaded: %1").arg(answer.error->description()), true);
                    return;
                }
                ShopStatement more = statement;
                more.lines += answer.value->lines;
                more.nextCursor = answer.value->nextCursor;
                loadAll(std::move(more), done);
            });
}

void StatementDialog::savePdf(const QString &path)
{
    if (!m_statement)
        return;
    setBusy(true);
    showMessage(tr("Preparing the PDF…"), false);
    loadAll(*m_statement, [this, path](const ShopStatement &whole) {
        setBusy(false);
        QString error;
        if (StatementReport::writePdf(path, whole, m_catalog, m_distributor, &error))
            showMessage(tr("The statement is saved in %1.").arg(QDir::toNativeSeparators(path)), false);
        else
            showMessage(error, true);
    });
}
