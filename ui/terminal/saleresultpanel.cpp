#include "saleresultpanel.h"

#include "apiclient.h"
#include "salechecks.h"
#include "upstreamnotice.h"
#include "widgets/look.h"
#include "widgets/statusbadge.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QShortcut>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

namespace {

const QString kWidthKey = QStringLiteral("receipts/width_mm");
const QString kPdfDirKey = QStringLiteral("receipts/pdf_dir");
/// Width of the receipt preview in device-independent pixels (the paper's width scales to it).
constexpr int kPreviewWidth = 280;

} // namespace

SaleResultPanel::SaleResultPanel(TerminalContext &context, QWidget *parent) : QWidget(parent), m_context(context)
{
    setObjectName(QStringLiteral("card"));
    setAttribute(Qt::WA_StyledBackground);
    m_badge = new StatusBadge(this);
    m_nextCheck = new QLabel(this);
    m_nextCheck->setObjectName(QStringLiteral("hint"));
    m_nextCheck->hide();
    m_money = new QLabel(this);
    m_money->setObjectName(QStringLiteral("resultMoney"));
    m_money->setWordWrap(true);
    m_advice = new QLabel(this);
    m_advice->setObjectName(QStringLiteral("hint"));
    m_advice->setWordWrap(true);
    m_advice->hide();
    m_serverOffline =
        new QLabel(tr("Server offline — the sale is safe; its status will update here when the server is back."), this);
    m_serverOffline->setObjectName(QStringLiteral("serverOffline"));
    m_serverOffline->setWordWrap(true);
    Look::set(m_serverOffline, "offlineNotice");
    m_serverOffline->hide();
    m_upstream = new UpstreamNotice(m_context.clock(), this);

    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(24);
    grid->setVerticalSpacing(6);
    addDetail(grid, QStringLiteral("transaction_id"), tr("Transaction id"));
    addDetail(grid, QStringLiteral("operator"), tr("Operator"));
    addDetail(grid, QStringLiteral("number"), tr("Number"));
    addDetail(grid, QStringLiteral("customer_email"), tr("Customer e-mail"));
    addDetail(grid, QStringLiteral("bill_amount"), tr("Bill amount"));
    addDetail(grid, QStringLiteral("paid"), tr("Wallet debit"));
    addDetail(grid, QStringLiteral("discount"), tr("Your commission"));
    addDetail(grid, QStringLiteral("datetime"), tr("Date and time (IST)"));
    addDetail(grid, QStringLiteral("reference_id"), tr("Reference id"));
    grid->setColumnStretch(1, 1);

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
    connect(m_width, &QComboBox::currentIndexChanged, this, [this] {
        m_context.settings().setValue(kWidthKey, m_width->currentData().toInt());
        updatePreview();
    });
    m_shopCopy = new QCheckBox(tr("Shop copy (with commission)"), this);
    m_shopCopy->setObjectName(QStringLiteral("shopCopy"));
    connect(m_shopCopy, &QCheckBox::toggled, this, &SaleResultPanel::updatePreview);
    m_previewTitle = new QLabel(this);
    m_previewTitle->setObjectName(QStringLiteral("hint"));
    m_previewTitle->setWordWrap(true);
    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("receiptPreview"));
    m_preview->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_preview->setFixedWidth(kPreviewWidth + 2);
    Look::set(m_preview, "receiptPreview");
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
    m_enterPause = new QLabel(tr("Enter is paused for a moment, so an extra press cannot start another sale."), this);
    m_enterPause->setObjectName(QStringLiteral("enterPause"));
    Look::set(m_enterPause, "warning");
    m_enterPause->setWordWrap(true);
    // Keeps its room when it goes, so the details do not jump up under the clerk's eyes.
    QSizePolicy pausePolicy = m_enterPause->sizePolicy();
    pausePolicy.setRetainSizeWhenHidden(true);
    m_enterPause->setSizePolicy(pausePolicy);
    m_enterPause->hide();
    m_enterPauseTimer = new QTimer(this);
    m_enterPauseTimer->setSingleShot(true);
    m_enterPauseTimer->setInterval(kEnterPauseMs);
    connect(m_enterPauseTimer, &QTimer::timeout, m_enterPause, &QLabel::hide);
    for (QWidget *control : std::initializer_list<QWidget *>{m_copy, m_width, m_print, m_savePdf, m_reprint, m_newSale})
        control->installEventFilter(this);
    // The receipt buttons sit under the details, beside the preview, so the whole result fits a
    // 1366×768 screen.
    auto *receiptButtons = new QGridLayout;
    receiptButtons->addWidget(m_width, 0, 0);
    receiptButtons->addWidget(m_print, 0, 1);
    receiptButtons->addWidget(m_savePdf, 1, 0);
    receiptButtons->addWidget(m_reprint, 1, 1);
    auto *newRow = new QHBoxLayout;
    newRow->addStretch();
    newRow->addWidget(m_newSale);

    auto *details = new QVBoxLayout;
    details->addWidget(m_money);
    details->addWidget(m_advice);
    details->addLayout(grid);
    details->addWidget(m_codeBox);
    details->addWidget(m_message);
    details->addStretch();
    details->addLayout(receiptButtons);
    details->addLayout(newRow);
    auto *receipt = new QVBoxLayout;
    receipt->addWidget(m_previewTitle);
    receipt->addWidget(m_shopCopy);
    receipt->addWidget(m_preview);
    receipt->addStretch();
    auto *body = new QHBoxLayout;
    body->setSpacing(20);
    body->addLayout(details, 1);
    body->addLayout(receipt);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 16, 20, 16);
    layout->addWidget(m_badge);
    layout->addWidget(m_enterPause);
    layout->addWidget(m_upstream);
    layout->addWidget(m_nextCheck);
    layout->addWidget(m_serverOffline);
    layout->addLayout(body, 1);
    setTabOrder(m_print, m_savePdf);
    setTabOrder(m_savePdf, m_reprint);
    setTabOrder(m_reprint, m_width);
    setTabOrder(m_width, m_shopCopy);
    setTabOrder(m_shopCopy, m_copy);
    setTabOrder(m_copy, m_newSale);

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

void SaleResultPanel::showRecord(const TransactionRecord &record)
{
    takeRecord(record);
    refresh();
}

void SaleResultPanel::showSale(const TransactionRecord &record, const SaleDraft &draft)
{
    takeRecord(record);
    m_circle = draft.circle;
    m_plan = draft.plan;
    refresh();
}

void SaleResultPanel::takeRecord(const TransactionRecord &record)
{
    const bool sameSale = m_record && m_record->transactionId == record.transactionId;
    if (!sameSale) {
        m_receiptIssued = false;
        m_message->hide();
        m_circle.clear();
        m_plan.reset();
        m_enterPause->show();
        m_enterPauseTimer->start();
    }
    m_record = record;
}

void SaleResultPanel::refresh()
{
    const ReceiptData data = receiptData();
    m_badge->setStatus(data.status);
    m_upstream->showRecord(*m_record);
    const QHash<QString, QString> values{
        {QStringLiteral("transaction_id"), data.transactionId},
        {QStringLiteral("operator"), data.operatorName},
        {QStringLiteral("number"), data.number},
        {QStringLiteral("customer_email"), data.customerEmail},
        {QStringLiteral("bill_amount"), data.billAmount},
        {QStringLiteral("discount"), data.failed() ? tr("none") : data.discount},
        {QStringLiteral("paid"), data.failed() ? tr("%1, refunded").arg(data.paid) : data.paid},
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
        Look::set(m_redeemCode, hasCode ? "" : "codeToCome");
        m_copy->setEnabled(hasCode);
    }
    if (data.status != QLatin1String("PENDING")) {
        setNextCheck(0);
        setServerOffline(false);
    }
    showMoney(data);
    updatePreview();
}

void SaleResultPanel::showMoney(const ReceiptData &data)
{
    // The customer pays the bill amount; the wallet debit and the commission are the shop's.
    QString advice;
    if (data.failed()) {
        m_money->setText(tr("Not recharged — nothing to pay"));
        advice = tr("Take no money for this sale: the wallet debit was refunded. Check the number and the operator "
                    "with the customer, then sell again.");
    } else {
        m_money->setText(tr("Collect %1 from the customer").arg(data.billAmount));
        if (data.status == QLatin1String("PENDING"))
            advice = tr("The operator has not answered yet. Collect the amount and ask the customer to wait; this "
                        "screen updates itself. Print the receipt once it succeeds. If it fails, the wallet is "
                        "refunded and you give the money back.");
    }
    m_advice->setText(advice);
    m_advice->setVisible(!advice.isEmpty());
}

void SaleResultPanel::updatePreview()
{
    if (!m_record) {
        m_preview->clear();
        return;
    }
    const ReceiptData data = receiptData();
    const bool duplicate = marksDuplicate(false);
    const ReceiptRenderer renderer;
    const QSizeF paper = renderer.paperSizeMm(data, receiptWidth(), duplicate);
    const QSizeF size(kPreviewWidth, kPreviewWidth * paper.height() / paper.width());
    const qreal ratio = devicePixelRatioF();
    QImage image((size * ratio).toSize(), QImage::Format_RGB32);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(painter, QRectF(QPointF(0, 0), size), data, receiptWidth(), duplicate);
    painter.end();
    m_preview->setPixmap(QPixmap::fromImage(image));
    m_previewTitle->setText(data.shopCopy ? tr("Shop copy, as it prints:") : tr("Customer's receipt, as it prints:"));
}

void SaleResultPanel::setNextCheck(int nextCheckMs)
{
    m_nextCheck->setVisible(nextCheckMs > 0);
    if (nextCheckMs > 0)
        m_nextCheck->setText(tr("This screen updates itself when the operator answers (next check in %n s).", nullptr,
                                (nextCheckMs + 999) / 1000));
}

void SaleResultPanel::setServerOffline(bool offline)
{
    m_serverOffline->setVisible(offline);
}

ReceiptData SaleResultPanel::receiptData() const
{
    ReceiptData data;
    if (m_record) {
        data = ReceiptData::fromRecord(*m_record, m_context.shopName(), m_context.shopAddress());
    } else {
        data.shopName = m_context.shopName();
        data.shopAddress = m_context.shopAddress();
    }
    data.circle = m_circle;
    data.plan = m_plan;
    data.sandbox = m_context.api().isTestMode();
    data.shopCopy = m_shopCopy->isChecked();
    return data;
}

ReceiptWidth SaleResultPanel::receiptWidth() const
{
    return m_width->currentData().toInt() == 58 ? ReceiptWidth::Mm58 : ReceiptWidth::Mm80;
}

void SaleResultPanel::setReceiptWidth(ReceiptWidth width)
{
    m_width->setCurrentIndex(width == ReceiptWidth::Mm58 ? 0 : 1);
}

bool SaleResultPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress && m_enterPauseTimer->isActive()) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter)
            return true;
    }
    return QWidget::eventFilter(watched, event);
}

QLabel *SaleResultPanel::detail(const QString &field) const
{
    return m_details.value(field);
}

bool SaleResultPanel::savePdf(const QString &path, bool duplicate)
{
    QString error;
    if (!ReceiptRenderer().writePdf(path, receiptData(), receiptWidth(), marksDuplicate(duplicate), &error)) {
        showMessage(error);
        return false;
    }
    noteIssued();
    showMessage(tr("Receipt saved to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool SaleResultPanel::marksDuplicate(bool duplicate) const
{
    // Only the customer's receipt has an original; shop copies never make it a duplicate.
    return duplicate || (m_receiptIssued && !m_shopCopy->isChecked());
}

void SaleResultPanel::noteIssued()
{
    if (!m_shopCopy->isChecked())
        m_receiptIssued = true;
    updatePreview();
}

void SaleResultPanel::onCopyClicked()
{
    QGuiApplication::clipboard()->setText(m_redeemCode->text());
    showMessage(tr("Code copied: paste it into the customer's message."));
}

void SaleResultPanel::onPrintClicked(bool duplicate)
{
    if (!m_record)
        return;
    if (!m_printer)
        m_printer = std::make_unique<QPrinter>(QPrinter::HighResolution);
    auto *dialog = new QPrintDialog(m_printer.get(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(duplicate ? tr("Reprint receipt") : tr("Print receipt"));
    connect(dialog, &QDialog::accepted, this, [this, duplicate] {
        const bool marked = marksDuplicate(duplicate);
        if (ReceiptRenderer().print(*m_printer, receiptData(), receiptWidth(), marked)) {
            noteIssued();
            showMessage(marked ? tr("Duplicate receipt sent to the printer.") : tr("Receipt sent to the printer."));
        } else {
            showMessage(tr("The printer could not start. Check it is on and has paper."));
        }
    });
    dialog->open();
}

void SaleResultPanel::onSavePdfClicked()
{
    if (!m_record)
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
