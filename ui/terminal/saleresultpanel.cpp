#include "saleresultpanel.h"

#include "apiclient.h"
#include "clock.h"
#include "complaints/complaintsection.h"
#include "counterprefs.h"
#include "salechecks.h"
#include "tenderpanel.h"
#include "ui_saleresultpanel.h"
#include "upstreamnotice.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"
#include "widgets/statusbadge.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QShortcut>
#include <QStandardPaths>
#include <QTimer>

namespace {

const QString kWidthKey = QStringLiteral("receipts/width_mm");
const QString kPdfDirKey = QStringLiteral("receipts/pdf_dir");
/// Width of the receipt preview in device-independent pixels (the paper's width scales to it).
constexpr int kPreviewWidth = 280;

} // namespace

SaleResultPanel::SaleResultPanel(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_ui(std::make_unique<Ui::SaleResultPanel>()),
      m_upstream(new UpstreamNotice(context.clock(), this)), m_enterPauseTimer(new QTimer(this))
{
    m_ui->setupUi(this);
    setAttribute(Qt::WA_StyledBackground); // its look "card" (the form) paints the background
    m_ui->panelLayout->insertWidget(2, m_upstream);
    m_complaints = new ComplaintSection(context, this);
    m_ui->panelLayout->insertWidget(3, m_complaints);
    const std::tuple<QString, QLabel *, QLabel *> details[] = {
        {QStringLiteral("transaction_id"), m_ui->name_transaction_id, m_ui->result_transaction_id},
        {QStringLiteral("operator"), m_ui->name_operator, m_ui->result_operator},
        {QStringLiteral("number"), m_ui->name_number, m_ui->result_number},
        {QStringLiteral("customer_email"), m_ui->name_customer_email, m_ui->result_customer_email},
        {QStringLiteral("bill_amount"), m_ui->name_bill_amount, m_ui->result_bill_amount},
        {QStringLiteral("paid"), m_ui->name_paid, m_ui->result_paid},
        {QStringLiteral("discount"), m_ui->name_discount, m_ui->result_discount},
        {QStringLiteral("datetime"), m_ui->name_datetime, m_ui->result_datetime},
        {QStringLiteral("reference_id"), m_ui->name_reference_id, m_ui->result_reference_id}};
    for (const auto &[field, name, value] : details) {
        m_detailNames.insert(field, name);
        m_details.insert(field, value);
    }

    m_ui->receiptWidth->addItem(tr("58 mm paper"), 58);
    m_ui->receiptWidth->addItem(tr("80 mm paper"), 80);
    m_ui->receiptWidth->setCurrentIndex(m_context.settings().value(kWidthKey, 80).toInt() == 58 ? 0 : 1);
    connect(m_ui->receiptWidth, &QComboBox::currentIndexChanged, this, [this] {
        m_context.settings().setValue(kWidthKey, m_ui->receiptWidth->currentData().toInt());
        updatePreview();
    });
    connect(m_ui->shopCopy, &QCheckBox::toggled, this, &SaleResultPanel::updatePreview);
    m_ui->receiptPreview->setFixedWidth(kPreviewWidth + 2);
    // The details scroll on the card's white; the buttons under them stay put (issue 27).
    m_ui->resultScroll->viewport()->setAutoFillBackground(false);
    m_ui->resultContent->setAutoFillBackground(false);
    // Keeps its room when it goes, so the details do not jump up under the clerk's eyes.
    QSizePolicy pausePolicy = m_ui->enterPause->sizePolicy();
    pausePolicy.setRetainSizeWhenHidden(true);
    m_ui->enterPause->setSizePolicy(pausePolicy);
    m_enterPauseTimer->setSingleShot(true);
    m_enterPauseTimer->setInterval(kEnterPauseMs);
    connect(m_enterPauseTimer, &QTimer::timeout, m_ui->enterPause, &QLabel::hide);
    for (QWidget *control : std::initializer_list<QWidget *>{m_ui->copyCode, m_ui->receiptWidth, m_ui->printReceipt,
                                                             m_ui->savePdf, m_ui->reprint, m_ui->newSale})
        control->installEventFilter(this);

    connect(m_ui->copyCode, &QPushButton::clicked, this, &SaleResultPanel::onCopyClicked);
    connect(m_ui->printReceipt, &QPushButton::clicked, this, [this] { onPrintClicked(false); });
    connect(m_ui->reprint, &QPushButton::clicked, this, [this] { onPrintClicked(true); });
    connect(m_ui->savePdf, &QPushButton::clicked, this, &SaleResultPanel::onSavePdfClicked);
    connect(m_ui->newSale, &QPushButton::clicked, this, &SaleResultPanel::newSaleRequested);
    auto *printShortcut = new QShortcut(QKeySequence::Print, this);
    connect(printShortcut, &QShortcut::activated, this, [this] { onPrintClicked(false); });
}

SaleResultPanel::~SaleResultPanel() = default;

QLabel *SaleResultPanel::serverOfflineLabel() const
{
    return m_ui->serverOffline;
}

StatusBadge *SaleResultPanel::badge() const
{
    return m_ui->statusBadge;
}

QLabel *SaleResultPanel::redeemCodeLabel() const
{
    return m_ui->redeemCode;
}

QPushButton *SaleResultPanel::copyButton() const
{
    return m_ui->copyCode;
}

QPushButton *SaleResultPanel::newSaleButton() const
{
    return m_ui->newSale;
}

QPushButton *SaleResultPanel::printButton() const
{
    return m_ui->printReceipt;
}

void SaleResultPanel::focusDefaultButton()
{
    const bool pending = m_record && receiptData().status == QLatin1String("PENDING");
    (pending ? m_ui->newSale : m_ui->printReceipt)->setFocus(Qt::OtherFocusReason);
}

QLabel *SaleResultPanel::enterPauseLabel() const
{
    return m_ui->enterPause;
}

QLabel *SaleResultPanel::messageLabel() const
{
    return m_ui->message;
}

QLabel *SaleResultPanel::moneyLabel() const
{
    return m_ui->resultMoney;
}

QLabel *SaleResultPanel::adviceLabel() const
{
    return m_ui->advice;
}

QLabel *SaleResultPanel::receiptPreview() const
{
    return m_ui->receiptPreview;
}

QCheckBox *SaleResultPanel::shopCopyBox() const
{
    return m_ui->shopCopy;
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
    m_cashReceived = draft.tender == Tender::Cash ? draft.cashReceived : std::nullopt;
    m_upiLink = draft.upiLink;
    if (m_record->tender.isEmpty()) // an older server keeps no tender: the terminal knows what the clerk chose
        m_draftTender = Tenders::wireName(draft.tender);
    refresh();
}

void SaleResultPanel::takeRecord(const TransactionRecord &record)
{
    const bool sameSale = m_record && m_record->transactionId == record.transactionId;
    if (!sameSale) {
        m_receiptIssued = false;
        m_ui->message->hide();
        m_circle.clear();
        m_plan.reset();
        m_cashReceived.reset();
        m_upiLink.clear();
        m_draftTender.clear();
        m_ui->enterPause->show();
        m_enterPauseTimer->start();
    }
    // Once this panel has said "Collect" (PENDING), a FAILED end means the money is in the drawer (issue 27), even
    // when the record does not say so (an older server).
    if (!sameSale)
        m_shownPending = false;
    if (record.status == TransactionStatus::Pending)
        m_shownPending = true;
    m_record = record;
}

void SaleResultPanel::refresh()
{
    const ReceiptData data = receiptData();
    m_ui->statusBadge->setStatus(data.status);
    m_upstream->showRecord(*m_record);
    m_complaints->setSale(*m_record);
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
    m_ui->codeBox->setVisible(voucher);
    if (voucher) {
        const bool hasCode = !data.redeemCode.isEmpty();
        m_ui->redeemCode->setText(hasCode ? SaleChecks::groupRedeemCode(data.redeemCode)
                                  : data.status == QLatin1String("FAILED")
                                      ? tr("No code: the sale failed")
                                      : tr("The code appears when the sale succeeds"));
        Look::set(m_ui->redeemCode, hasCode ? "redeemCode" : "codeToCome");
        m_ui->copyCode->setEnabled(hasCode);
    }
    if (data.status != QLatin1String("PENDING")) {
        setNextCheck(0);
        setServerOffline(false);
    }
    showMoney(data);
    updatePreview();
    // A PENDING sale that succeeds moves the focus from New sale to Print receipt (issue 27).
    const bool pending = data.status == QLatin1String("PENDING");
    if (m_wasPending && data.status == QLatin1String("SUCCESS") && focusWidget() == m_ui->newSale)
        m_ui->printReceipt->setFocus(Qt::OtherFocusReason);
    m_wasPending = pending;
}

void SaleResultPanel::showMoney(const ReceiptData &data)
{
    // The customer pays the bill amount; the wallet debit and the commission are the shop's.
    QString money;
    QString advice;
    if (data.givesMoneyBack() && data.paidByUpi()) {
        // Paid by UPI before the sale was sent (issue 28): the money goes back by UPI, from the shop's UPI app.
        money = tr("Refund %1 by UPI to the customer").arg(data.billAmount);
        advice = tr("The sale failed after the customer paid by UPI: send the %1 back to the customer from the shop's "
                    "UPI app. The wallet debit was refunded.")
                     .arg(data.billAmount);
    } else if (data.givesMoneyBack()) {
        money = tr("Give %1 back to the customer").arg(data.billAmount);
        advice = tr("The operator failed the sale after you collected the money: give the customer back the %1 "
                    "they paid. The wallet debit was refunded.")
                     .arg(data.billAmount);
    } else if (data.failed()) {
        money = tr("Not recharged — nothing to pay");
        advice = tr("Take no money for this sale: the wallet debit was refunded. Check the number and the operator "
                    "with the customer, then sell again.");
        if (m_cashReceived)
            advice = tr("Give back the %1 the customer handed over: the sale failed and the wallet debit was "
                        "refunded. Check the number and the operator with the customer, then sell again.")
                         .arg(Money::formatIndian(*m_cashReceived));
    } else {
        const bool pending = data.status == QLatin1String("PENDING");
        money = data.paidByUpi() ? tr("Paid %1 by UPI").arg(data.billAmount)
                                 : tr("Collect %1 from the customer").arg(data.billAmount);
        if (pending && data.paidByUpi())
            advice = tr("The operator has not answered yet. Ask the customer to wait; this screen updates itself. "
                        "Print the receipt once it succeeds. If it fails, the wallet is refunded and you refund the "
                        "customer by UPI.");
        else if (pending)
            advice = tr("The operator has not answered yet. Collect the amount and ask the customer to wait; this "
                        "screen updates itself. Print the receipt once it succeeds. If it fails, the wallet is "
                        "refunded and you give the money back.");
        if (m_cashReceived && m_record) {
            // issue 28: the change the clerk counted on at the confirmation, still in sight while giving it.
            const QString change = TenderPanel::changeText(*m_cashReceived, m_record->billAmount);
            money += QLatin1Char('\n') + tr("%1 (received %2)").arg(change, Money::formatIndian(*m_cashReceived));
        }
    }
    m_ui->resultMoney->setText(money);
    m_ui->advice->setText(advice);
    m_ui->advice->setVisible(!advice.isEmpty());
}

void SaleResultPanel::updatePreview()
{
    if (!m_record) {
        m_ui->receiptPreview->clear();
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
    m_ui->receiptPreview->setPixmap(QPixmap::fromImage(image));
    m_ui->previewTitle->setText(data.shopCopy ? tr("Shop copy, as it prints:")
                                              : tr("Customer's receipt, as it prints:"));
}

void SaleResultPanel::setNextCheck(int nextCheckMs)
{
    m_ui->nextCheck->setVisible(nextCheckMs > 0);
    if (nextCheckMs > 0)
        m_ui->nextCheck->setText(tr("This screen updates itself when the operator answers (next check in %n s).",
                                    nullptr, (nextCheckMs + 999) / 1000));
}

void SaleResultPanel::setServerOffline(bool offline)
{
    m_ui->serverOffline->setVisible(offline);
}

ReceiptData SaleResultPanel::receiptData() const
{
    ReceiptData data;
    if (m_record) {
        data = ReceiptData::fromRecord(*m_record, m_context.shopName(), m_context.shopAddress(),
                                       IstTime::dateOf(m_context.clock().nowUtc()));
    } else {
        data.shopName = m_context.shopName();
        data.shopAddress = m_context.shopAddress();
    }
    data.circle = m_circle;
    data.plan = m_plan;
    data.failedAfterPending = data.failedAfterPending || m_shownPending;
    if (data.tender.isEmpty())
        data.tender = m_draftTender;
    if (CounterPrefs(m_context.settings()).printUpiQr())
        data.upiLink = m_upiLink; // the receipt prints the UPI QR of the sale (issue 28)
    data.sandbox = m_context.api().isTestMode();
    data.shopCopy = m_ui->shopCopy->isChecked();
    return data;
}

ReceiptWidth SaleResultPanel::receiptWidth() const
{
    return m_ui->receiptWidth->currentData().toInt() == 58 ? ReceiptWidth::Mm58 : ReceiptWidth::Mm80;
}

void SaleResultPanel::setReceiptWidth(ReceiptWidth width)
{
    m_ui->receiptWidth->setCurrentIndex(width == ReceiptWidth::Mm58 ? 0 : 1);
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
    return duplicate || (m_receiptIssued && !m_ui->shopCopy->isChecked());
}

void SaleResultPanel::noteIssued()
{
    if (!m_ui->shopCopy->isChecked())
        m_receiptIssued = true;
    updatePreview();
}

void SaleResultPanel::onCopyClicked()
{
    QGuiApplication::clipboard()->setText(m_ui->redeemCode->text());
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
    DialogFocus::openAndRestore(dialog);
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
    m_ui->message->setText(message);
    m_ui->message->show();
}
