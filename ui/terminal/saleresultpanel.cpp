#include "saleresultpanel.h"

#include "salechecks.h"
#include "upstreamnotice.h"
#include "widgets/statusbadge.h"

#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QShortcut>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace {

const QString kWidthKey = QStringLiteral("receipts/width_mm");
const QString kPdfDirKey = QStringLiteral("receipts/pdf_dir");

} // namespace

SaleResultPanel::SaleResultPanel(TerminalContext &context, QWidget *parent) : QWidget(parent), m_context(context)
{
    setObjectName(QStringLiteral("card"));
    setAttribute(Qt::WA_StyledBackground);
    m_badge = new StatusBadge(this);
    m_nextCheck = new QLabel(this);
    m_nextCheck->setObjectName(QStringLiteral("hint"));
    m_nextCheck->hide();
    m_upstream = new UpstreamNotice(this);

    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(24);
    grid->setVerticalSpacing(6);
    addDetail(grid, QStringLiteral("transaction_id"), tr("Transaction id"));
    addDetail(grid, QStringLiteral("operator"), tr("Operator"));
    addDetail(grid, QStringLiteral("number"), tr("Number"));
    addDetail(grid, QStringLiteral("customer_email"), tr("Customer e-mail"));
    addDetail(grid, QStringLiteral("bill_amount"), tr("Bill amount"));
    addDetail(grid, QStringLiteral("discount"), tr("Discount"));
    addDetail(grid, QStringLiteral("paid"), tr("Paid"));
    addDetail(grid, QStringLiteral("datetime"), tr("Date and time (IST)"));
    addDetail(grid, QStringLiteral("reference_id"), tr("Reference id"));
    grid->setColumnStretch(1, 1);
    m_details.value(QStringLiteral("paid"))->setStyleSheet(QStringLiteral("font-size: 22px; font-weight: 700;"));

    m_codeBox = new QWidget(this);
    auto *codeTitle = new QLabel(tr("Redeem code — give this to the customer"), m_codeBox);
    m_redeemCode = new QLabel(m_codeBox);
    m_redeemCode->setObjectName(QStringLiteral("redeemCode"));
    m_redeemCode->setAlignment(Qt::AlignCenter);
    m_redeemCode->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_copy = new QPushButton(tr("Copy code"), m_codeBox);
    m_copy->setObjectName(QStringLiteral("copyCode"));
    m_copy->setAutoDefault(true);
    auto *codeRow = new QHBoxLayout;
    codeRow->addWidget(m_redeemCode, 1);
    codeRow->addWidget(m_copy);
    auto *codeLayout = new QVBoxLayout(m_codeBox);
    codeLayout->setContentsMargins(0, 8, 0, 0);
    codeLayout->addWidget(codeTitle);
    codeLayout->addLayout(codeRow);
    m_codeBox->hide();

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("hint"));
    m_message->setWordWrap(true);
    m_message->hide();

    m_width = new QComboBox(this);
    m_width->setObjectName(QStringLiteral("receiptWidth"));
    m_width->addItem(tr("58 mm paper"), 58);
    m_width->addItem(tr("80 mm paper"), 80);
    m_width->setCurrentIndex(m_context.settings().value(kWidthKey, 80).toInt() == 58 ? 0 : 1);
    connect(m_width, &QComboBox::currentIndexChanged, this,
            [this] { m_context.settings().setValue(kWidthKey, m_width->currentData().toInt()); });
    m_print = new QPushButton(tr("Print receipt (Ctrl+P)"), this);
    m_print->setObjectName(QStringLiteral("printReceipt"));
    m_savePdf = new QPushButton(tr("Save PDF"), this);
    m_savePdf->setObjectName(QStringLiteral("savePdf"));
    m_reprint = new QPushButton(tr("Reprint (duplicate)"), this);
    m_reprint->setObjectName(QStringLiteral("reprint"));
    m_newSale = new QPushButton(tr("New sale (Ctrl+N)"), this);
    m_newSale->setObjectName(QStringLiteral("primary"));
    for (QPushButton *button : {m_print, m_savePdf, m_reprint, m_newSale})
        button->setAutoDefault(true);
    auto *receiptRow = new QHBoxLayout;
    receiptRow->addWidget(m_width);
    receiptRow->addWidget(m_print);
    receiptRow->addWidget(m_savePdf);
    receiptRow->addWidget(m_reprint);
    receiptRow->addStretch();
    auto *newRow = new QHBoxLayout;
    newRow->addStretch();
    newRow->addWidget(m_newSale);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 16, 20, 16);
    layout->addWidget(m_badge);
    layout->addWidget(m_upstream);
    layout->addWidget(m_nextCheck);
    layout->addLayout(grid);
    layout->addWidget(m_codeBox);
    layout->addWidget(m_message);
    layout->addStretch();
    layout->addLayout(receiptRow);
    layout->addLayout(newRow);
    setTabOrder(m_newSale, m_copy);
    setTabOrder(m_copy, m_print);
    setTabOrder(m_print, m_savePdf);
    setTabOrder(m_savePdf, m_reprint);
    setTabOrder(m_reprint, m_width);

    connect(m_copy, &QPushButton::clicked, this, &SaleResultPanel::onCopyClicked);
    connect(m_print, &QPushButton::clicked, this, [this] { onPrintClicked(false); });
    connect(m_reprint, &QPushButton::clicked, this, [this] { onPrintClicked(true); });
    connect(m_savePdf, &QPushButton::clicked, this, &SaleResultPanel::onSavePdfClicked);
    connect(m_newSale, &QPushButton::clicked, this, &SaleResultPanel::newSaleRequested);
    auto *printShortcut = new QShortcut(QKeySequence::Print, this);
    connect(printShortcut, &QShortcut::activated, this, [this] { onPrintClicked(false); });
}

SaleResultPanel::~SaleResultPanel() = default;

void SaleResultPanel::addDetail(QGridLayout *grid, const QString &field, const QString &label)
{
    const int row = grid->rowCount();
    auto *name = new QLabel(label, this);
    auto *value = new QLabel(this);
    value->setObjectName(QStringLiteral("result_") + field);
    value->setWordWrap(true);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(name, row, 0);
    grid->addWidget(value, row, 1);
    m_details.insert(field, value);
    m_detailNames.insert(field, name);
}

void SaleResultPanel::showRecord(const QJsonObject &record)
{
    const bool sameSale =
        m_record.value(QStringLiteral("transaction_id")) == record.value(QStringLiteral("transaction_id"));
    if (!sameSale) {
        m_receiptIssued = false;
        m_message->hide();
    }
    m_record = record;
    const ReceiptData data = receiptData();
    m_badge->setStatus(data.status);
    m_upstream->showRecord(record);
    const QHash<QString, QString> values{{QStringLiteral("transaction_id"), data.transactionId},
                                         {QStringLiteral("operator"), data.operatorName},
                                         {QStringLiteral("number"), data.number},
                                         {QStringLiteral("customer_email"), data.customerEmail},
                                         {QStringLiteral("bill_amount"), data.billAmount},
                                         {QStringLiteral("discount"), data.discount},
                                         {QStringLiteral("paid"), data.paid},
                                         {QStringLiteral("datetime"), data.datetime},
                                         {QStringLiteral("reference_id"), data.referenceId}};
    for (auto it = m_details.cbegin(); it != m_details.cend(); ++it) {
        const QString value = values.value(it.key());
        it.value()->setText(value);
        it.value()->setVisible(!value.isEmpty());
        m_detailNames.value(it.key())->setVisible(!value.isEmpty());
    }
    m_detailNames.value(QStringLiteral("number"))->setText(data.numberLabel());

    const bool voucher = data.type == QLatin1String("VOUCHER");
    m_codeBox->setVisible(voucher);
    if (voucher) {
        const bool hasCode = !data.redeemCode.isEmpty();
        m_redeemCode->setText(hasCode                                  ? SaleChecks::groupRedeemCode(data.redeemCode)
                              : data.status == QLatin1String("FAILED") ? tr("No code: the sale failed")
                                                                       : tr("The code appears when the sale succeeds"));
        m_redeemCode->setStyleSheet(hasCode ? QString() : QStringLiteral("font-size: 18px;"));
        m_copy->setEnabled(hasCode);
    }
    if (data.status != QLatin1String("PENDING"))
        setNextCheck(0);
}

void SaleResultPanel::setNextCheck(int nextCheckMs)
{
    m_nextCheck->setVisible(nextCheckMs > 0);
    if (nextCheckMs > 0)
        m_nextCheck->setText(tr("This screen updates itself when the operator answers (next check in %n s).", nullptr,
                                (nextCheckMs + 999) / 1000));
}

ReceiptData SaleResultPanel::receiptData() const
{
    return ReceiptData::fromRecord(m_record, m_context.shopName(), m_context.shopAddress());
}

ReceiptWidth SaleResultPanel::receiptWidth() const
{
    return m_width->currentData().toInt() == 58 ? ReceiptWidth::Mm58 : ReceiptWidth::Mm80;
}

void SaleResultPanel::setReceiptWidth(ReceiptWidth width)
{
    m_width->setCurrentIndex(width == ReceiptWidth::Mm58 ? 0 : 1);
}

QLabel *SaleResultPanel::detail(const QString &field) const
{
    return m_details.value(field);
}

bool SaleResultPanel::savePdf(const QString &path, bool duplicate)
{
    QString error;
    if (!ReceiptRenderer().writePdf(path, receiptData(), receiptWidth(), duplicate || m_receiptIssued, &error)) {
        showMessage(error);
        return false;
    }
    m_receiptIssued = true;
    showMessage(tr("Receipt saved to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void SaleResultPanel::onCopyClicked()
{
    QGuiApplication::clipboard()->setText(m_redeemCode->text());
    showMessage(tr("Code copied: paste it into the customer's message."));
}

void SaleResultPanel::onPrintClicked(bool duplicate)
{
    if (m_record.isEmpty())
        return;
    if (!m_printer)
        m_printer = std::make_unique<QPrinter>(QPrinter::HighResolution);
    auto *dialog = new QPrintDialog(m_printer.get(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(duplicate ? tr("Reprint receipt") : tr("Print receipt"));
    connect(dialog, &QDialog::accepted, this, [this, duplicate] {
        const bool marked = duplicate || m_receiptIssued;
        if (ReceiptRenderer().print(*m_printer, receiptData(), receiptWidth(), marked)) {
            m_receiptIssued = true;
            showMessage(marked ? tr("Duplicate receipt sent to the printer.") : tr("Receipt sent to the printer."));
        } else {
            showMessage(tr("The printer could not start. Check it is on and has paper."));
        }
    });
    dialog->open();
}

void SaleResultPanel::onSavePdfClicked()
{
    if (m_record.isEmpty())
        return;
    const QString dir = m_context.settings()
                            .value(kPdfDirKey, QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                            .toString();
    const QString name = QStringLiteral("receipt-%1.pdf").arg(receiptData().transactionId);
    auto *dialog = new QFileDialog(this, tr("Save receipt as PDF"), QDir(dir).filePath(name), tr("PDF files (*.pdf)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("pdf"));
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        m_context.settings().setValue(kPdfDirKey, QFileInfo(path).absolutePath());
        savePdf(path);
    });
    dialog->open();
}

void SaleResultPanel::showMessage(const QString &message)
{
    m_message->setText(message);
    m_message->show();
}
