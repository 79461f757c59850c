#include "fundrequestdialog.h"

#include "entities/fundrequest.h"
#include "fundwords.h"
#include "money.h"
#include "terminalcontext.h"
#include "upstreamfundsapi.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

const QString kSlipDirKey = QStringLiteral("backoffice/slip_dir");
constexpr QSize kPreviewSize(320, 200);

} // namespace

FundRequestDialog::FundRequestDialog(TerminalContext &context, const UpstreamInfo &upstream, QWidget *parent)
    : QDialog(parent), m_context(context), m_upstream(upstream.name),
      m_amount(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, 7, this)), m_method(new QComboBox(this)),
      m_utr(new QLineEdit(this)), m_note(new QLineEdit(this)),
      m_chooseSlip(new QPushButton(tr("C&hoose photo…"), this)), m_removeSlip(new QPushButton(tr("Re&move"), this)),
      m_slipName(new QLabel(this)), m_preview(new QLabel(this))
{
    setObjectName(QStringLiteral("fundRequestDialog"));
    setWindowTitle(tr("Request a top-up from your distributor"));

    auto *explanation = new QLabel(
        tr("Ask your distributor, %1, to credit your live wallet for money you paid them. They check the UTR "
           "against their bank and approve it; your wallet here is then credited with the same amount, once.")
            .arg(FundWords::distributorText(upstream)),
        this);
    Look::set(explanation, "hint");
    explanation->setWordWrap(true);

    m_amount->setObjectName(QStringLiteral("fundAmount"));
    m_amount->setPlaceholderText(tr("Rupees, e.g. 5000"));
    m_method->setObjectName(QStringLiteral("fundMethod"));
    for (const QString &method : FundRequest::methods())
        m_method->addItem(FundWords::methodText(method), method);
    m_utr->setObjectName(QStringLiteral("fundUtr"));
    m_utr->setMaxLength(FundRequest::kMaxUtr);
    m_utr->setPlaceholderText(tr("As on the bank's message, e.g. 412345678901"));
    m_note->setObjectName(QStringLiteral("fundNote"));
    m_note->setMaxLength(FundRequest::kMaxNote);
    m_note->setPlaceholderText(tr("Optional"));
    m_chooseSlip->setObjectName(QStringLiteral("fundChooseSlip"));
    m_chooseSlip->setAutoDefault(false);
    m_removeSlip->setObjectName(QStringLiteral("fundRemoveSlip"));
    m_removeSlip->setAutoDefault(false);
    m_removeSlip->hide();
    m_slipName->setObjectName(QStringLiteral("fundSlipName"));
    m_slipName->setText(tr("No photo (optional): PNG or JPEG, at most 1 MiB"));
    Look::set(m_slipName, "hint");
    m_slipName->setWordWrap(true);
    m_preview->setObjectName(QStringLiteral("fundSlipPreview"));
    m_preview->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_preview->setFrameShape(QFrame::Box);                            // a pale photo keeps its edge
    m_preview->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed); // the frame hugs the photo
    m_preview->hide();

    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("fundError"));
    Look::set(general, "generalError");
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);
    QLabel *amountError = FormErrors::makeLabel(this);
    QLabel *methodError = FormErrors::makeLabel(this);
    QLabel *utrError = FormErrors::makeLabel(this);
    QLabel *noteError = FormErrors::makeLabel(this);
    QLabel *slipError = FormErrors::makeLabel(this);
    const std::pair<const char *, QLabel *> fields[] = {
        {"amount", amountError}, {"method", methodError}, {"utr", utrError}, {"note", noteError}, {"slip", slipError}};
    for (const auto &[field, label] : fields) {
        label->setObjectName(QStringLiteral("fundError_") + QLatin1String(field));
        m_errors->addField(QLatin1String(field), label);
    }

    auto *buttons = new QDialogButtonBox(this);
    m_send = buttons->addButton(tr("&Send request"), QDialogButtonBox::AcceptRole);
    m_send->setObjectName(QStringLiteral("fundSend"));
    m_send->setDefault(true);
    Look::set(m_send, "primary");
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("fundCancel"));

    auto *form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    const auto row = [this, form](const QString &text, QWidget *field, QLabel *error) {
        auto *label = new QLabel(text, this);
        label->setBuddy(field);
        form->addRow(label, field);
        form->addRow(QString(), error);
    };
    row(tr("&Amount (₹)"), m_amount, amountError);
    row(tr("&Paid by"), m_method, methodError);
    row(tr("&UTR or reference"), m_utr, utrError);
    row(tr("N&ote"), m_note, noteError);
    auto *slipRow = new QHBoxLayout;
    slipRow->addWidget(m_chooseSlip);
    slipRow->addWidget(m_removeSlip);
    slipRow->addWidget(m_slipName, 1);
    auto *slipLabel = new QLabel(tr("Slip photo"), this);
    form->addRow(slipLabel, slipRow);
    form->addRow(QString(), slipError);
    form->addRow(QString(), m_preview);

    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(explanation);
    layout->addLayout(form);
    layout->addWidget(general);
    layout->addWidget(buttons);
    setMinimumWidth(580);

    setTabOrder(m_amount, m_method);
    setTabOrder(m_method, m_utr);
    setTabOrder(m_utr, m_note);
    setTabOrder(m_note, m_chooseSlip);
    setTabOrder(m_chooseSlip, m_removeSlip);
    setTabOrder(m_removeSlip, m_send);
    setTabOrder(m_send, m_cancel);
    m_amount->setFocus();

    connect(m_amount, &DigitsLineEdit::refused, this,
            [this](const QString &reason) { m_errors->showAt(QStringLiteral("amount"), reason); });
    connect(m_chooseSlip, &QPushButton::clicked, this, &FundRequestDialog::onChooseSlipClicked);
    connect(m_removeSlip, &QPushButton::clicked, this, &FundRequestDialog::removeSlip);
    connect(m_send, &QPushButton::clicked, this, &FundRequestDialog::onSendClicked);
    connect(m_cancel, &QPushButton::clicked, this, &FundRequestDialog::reject);
}

FundRequestDialog::~FundRequestDialog() = default;

void FundRequestDialog::reject()
{
    if (m_busy)
        return; // the answer must arrive here before the dialog goes
    QDialog::reject();
}

void FundRequestDialog::onChooseSlipClicked()
{
    const QString dir = m_context.settings().value(kSlipDirKey, QDir::homePath()).toString();
    auto *dialog =
        new QFileDialog(this, tr("Photo of the payment slip"), dir, tr("Photos (*.png *.jpg *.jpeg);;All files (*)"));
    dialog->setObjectName(QStringLiteral("slipFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        m_context.settings().setValue(kSlipDirKey, QFileInfo(path).absolutePath());
        chooseSlipFile(path);
    });
    dialog->open();
}

void FundRequestDialog::chooseSlipFile(const QString &path)
{
    m_errors->clear();
    QString refusal;
    m_slip = SlipFile::read(path, &refusal);
    if (!m_slip) {
        removeSlip();
        m_errors->showAt(QStringLiteral("slip"), refusal);
        fitToContents();
        m_chooseSlip->setFocus();
        return;
    }
    m_slipName->setText(m_slip->summary());
    Look::set(m_slipName, "strong");
    m_preview->setPixmap(
        QPixmap::fromImage(m_slip->image().scaled(kPreviewSize, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    m_preview->show();
    m_removeSlip->show();
    fitToContents();
    m_send->setFocus();
}

void FundRequestDialog::removeSlip()
{
    m_slip.reset();
    m_slipName->setText(tr("No photo (optional): PNG or JPEG, at most 1 MiB"));
    Look::set(m_slipName, "hint");
    m_preview->clear();
    m_preview->hide();
    if (m_removeSlip->hasFocus())
        m_chooseSlip->setFocus();
    m_removeSlip->hide();
}

void FundRequestDialog::onSendClicked()
{
    if (m_busy)
        return;
    m_errors->clear();
    bool ok = false;
    const qint64 rupees = m_amount->text().toLongLong(&ok);
    if (!ok || rupees <= 0)
        m_errors->showAt(QStringLiteral("amount"), tr("Enter the amount you paid in whole rupees, e.g. 5000."),
                         m_amount);
    const QString utr = m_utr->text().trimmed();
    if (!FundRequest::isValidUtr(utr))
        m_errors->showAt(QStringLiteral("utr"),
                         tr("Enter the UTR or reference of the payment: %1 to %2 letters, digits, / or -, as the "
                            "bank's message shows it.")
                             .arg(FundRequest::kMinUtr)
                             .arg(FundRequest::kMaxUtr),
                         m_utr);
    if (QWidget *firstProblem = m_errors->firstProblem()) {
        fitToContents();
        firstProblem->setFocus();
        return;
    }
    FundRequestDraft draft;
    draft.rupees = rupees;
    draft.method = m_method->currentData().toString();
    draft.utr = utr;
    draft.note = m_note->text().trimmed();
    if (m_slip) {
        draft.slip = m_slip->bytes();
        draft.slipType = m_slip->contentType();
    }
    setBusy(true);
    UpstreamFundsApi(m_context.api())
        .request(m_upstream, draft)
        .then(this, [this](const Answer<UpstreamFundRequest> &answer) { onAnswer(answer); });
}

void FundRequestDialog::onAnswer(const Answer<UpstreamFundRequest> &answer)
{
    setBusy(false);
    if (!answer.ok()) {
        const ApiError &error = *answer.error;
        if (error.httpStatus() == 0)
            m_errors->showAt(QString(), tr("The server did not answer: %1").arg(error.description()));
        else if (error.field().isEmpty())
            m_errors->showAt(QString(), tr("Not sent: %1").arg(error.description()));
        else
            m_errors->show(error);
        fitToContents();
        return;
    }
    emit sent(*answer.value);
    if (answer.value->state == QLatin1String("refused")) {
        // Kept in the list as refused; the person may correct the form and send it again.
        m_errors->showAt(QString(), tr("The distributor refused it: %1").arg(answer.value->reason));
        fitToContents();
        m_utr->setFocus();
        return;
    }
    accept();
}

void FundRequestDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_send->setEnabled(!busy);
    m_cancel->setEnabled(!busy);
    m_chooseSlip->setEnabled(!busy);
    m_removeSlip->setEnabled(!busy);
    m_send->setText(busy ? tr("Sending…") : tr("&Send request"));
}

void FundRequestDialog::fitToContents()
{
    QLayout *box = layout();
    box->activate();
    const int needed = box->hasHeightForWidth() ? box->totalHeightForWidth(width()) : box->totalSizeHint().height();
    if (needed > height())
        resize(width(), needed);
}
