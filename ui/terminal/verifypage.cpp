#include "verifypage.h"

#include "apiclient.h"
#include "clock.h"
#include "validators.h"
#include "widgets/formerrors.h"
#include "widgets/wrappedcheckbox.h"

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QStackedWidget>
#include <QStyle>
#include <QTime>
#include <QVBoxLayout>

namespace {

constexpr int kAadhaarDigits = 12;
constexpr int kCodeDigits = 6;                 // captcha and OTP (api-conventions.md "Aadhaar OTP flow")
constexpr qint64 kOtpValidityMs = 10 * 60'000; // OTP lifetime from the send
constexpr int kOtpTries = 3;
constexpr int kSmsShown = 20;
const QLatin1String kFlowPath("/api/v1/uidai/aadhaar-authentication/");

// Page-local look for widgets whose object names are test handles (style.qss styles by object name).
const QLatin1String kPageStyle(
    "QPushButton#requestOtpButton, QPushButton#verifyOtpButton, QPushButton#verifyAnotherButton {"
    " background: #1570ef; color: white; border: none; font-weight: 600; }"
    "QPushButton#requestOtpButton:disabled, QPushButton#verifyOtpButton:disabled { background: #98a2b3; }"
    "QPushButton#requestOtpButton:focus, QPushButton#verifyOtpButton:focus, QPushButton#verifyAnotherButton:focus {"
    " border: 3px solid #0b4aa2; }"
    "QLineEdit#aadhaarInput, QLineEdit#captchaInput, QLineEdit#otpInput {"
    " font-family: 'DejaVu Sans Mono'; font-size: 24px; min-height: 44px; }"
    "QLabel#aadhaarCheck[state=\"bad\"] { color: #b42318; font-weight: 600; }"
    "QLabel#aadhaarCheck[state=\"ok\"] { color: #067647; font-weight: 600; }"
    "QLabel#aadhaarCheck { color: #667085; }"
    "QLabel#captchaImage { background: white; border: 1px solid #d0d5dd; border-radius: 6px; color: #667085; }"
    "QLabel#otpCountdown, QLabel#otpTries { font-size: 18px; font-weight: 600; color: #1d2939; }"
    "QLabel#otpCountdown[state=\"bad\"] { color: #b42318; }"
    "QLabel#maskedNumber { font-family: 'DejaVu Sans Mono'; font-size: 32px; font-weight: 700; color: #101828; }"
    "QLabel#verifiedBadge { font-size: 26px; font-weight: 700; border-radius: 10px; padding: 10px; color: white;"
    " background: #079455; }"
    "QLabel#sandboxTitle { background: #f79009; color: #1d1d1d; font-weight: 700; padding: 6px 10px;"
    " border-radius: 6px; }"
    "QListWidget#smsOutbox { background: white; border: 1px solid #e4e7ec; border-radius: 6px; }"
    "QListWidget#smsOutbox::item { padding: 8px; border-bottom: 1px solid #e4e7ec; }"
    "QCheckBox#consentCheck { font-weight: 600; spacing: 10px; }"
    "QCheckBox#consentCheck::indicator { width: 22px; height: 22px; }");

QString digitsOf(const QString &text)
{
    QString digits;
    for (const QChar c : text) {
        if (c >= u'0' && c <= u'9')
            digits.append(c);
    }
    return digits;
}

/// The "N attempts left" of an otp_mismatch/captcha_mismatch description; `fallback` when it names none.
int attemptsLeft(const QString &description, int fallback)
{
    static const QRegularExpression pattern(QStringLiteral("(\\d+) attempts? left"));
    const QRegularExpressionMatch match = pattern.match(description);
    if (match.hasMatch())
        return match.captured(1).toInt();
    if (description.contains(QLatin1String("no attempts left")))
        return 0;
    return fallback;
}

QString minutesSeconds(qint64 seconds)
{
    return QStringLiteral("%1:%2")
        .arg(seconds / 60, 2, 10, QLatin1Char('0'))
        .arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

qint64 secondsLeft(const QDeadlineTimer &deadline)
{
    return (deadline.remainingTime() + 999) / 1000;
}

void setState(QWidget *widget, const char *name, const QVariant &value)
{
    widget->setProperty(name, value);
    widget->style()->unpolish(widget);
    widget->style()->polish(widget);
}

QLineEdit *digitsEdit(int digits, const QString &objectName, QWidget *parent)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(objectName);
    edit->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,%1}").arg(digits)), edit));
    edit->setMaxLength(digits);
    edit->setInputMethodHints(Qt::ImhDigitsOnly);
    return edit;
}

} // namespace

VerifyPage::VerifyPage(TerminalContext &context, QWidget *parent) : QWidget(parent), m_context(context)
{
    setObjectName(QStringLiteral("page"));
    setStyleSheet(kPageStyle);

    auto *title = new QLabel(tr("Verify customer (Aadhaar OTP)"), this);
    title->setObjectName(QStringLiteral("pageTitle"));
    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("generalError"));
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);

    // Step 1: consent, number, captcha.
    m_requestStep = new QWidget(this);
    auto *consentText = new QLabel(
        tr("<b>Read this to the customer before you start.</b><br>"
           "To confirm who you are, this shop sends your Aadhaar number to UIDAI, which sends a one-time password "
           "(OTP) to the mobile number linked with your Aadhaar. Nothing else is shared, and it is used only for this "
           "check. Your Aadhaar number is not stored at this shop: afterwards only its last 4 digits are shown, as "
           "XXXX XXXX 1234."),
        m_requestStep);
    consentText->setWordWrap(true);
    consentText->setTextFormat(Qt::RichText);
    auto *consent = new WrappedCheckBox(tr("The customer agrees to verify their identity with Aadhaar OTP"),
                                        m_requestStep); // wraps: a plain QCheckBox would widen the page
    consent->label()->setStyleSheet(QStringLiteral("font-weight: 600;"));
    m_consent = consent->checkBox();
    m_consent->setObjectName(QStringLiteral("consentCheck"));
    m_consent->installEventFilter(this);

    m_numberArea = new QWidget(m_requestStep);
    m_number = new QLineEdit(m_numberArea);
    m_number->setObjectName(QStringLiteral("aadhaarInput"));
    m_number->setPlaceholderText(QStringLiteral("0000 0000 0000"));
    m_number->setInputMethodHints(Qt::ImhDigitsOnly);
    m_number->setMaxLength(kAadhaarDigits + 6); // room for pasted separators; the formatter keeps 12 digits
    m_numberCheck = new QLabel(m_numberArea);
    m_numberCheck->setObjectName(QStringLiteral("aadhaarCheck"));
    m_numberCheck->setWordWrap(true);
    QLabel *numberError = FormErrors::makeLabel(m_numberArea);

    m_captchaImage = new QLabel(tr("The captcha appears here"), m_numberArea);
    m_captchaImage->setObjectName(QStringLiteral("captchaImage"));
    m_captchaImage->setAlignment(Qt::AlignCenter);
    m_captchaImage->setMinimumSize(220, 72);
    m_captchaRefresh = new QPushButton(tr("New captcha"), m_numberArea);
    m_captchaRefresh->setObjectName(QStringLiteral("captchaRefresh"));
    m_captchaRefresh->setToolTip(tr("Draw a new captcha picture (starts a new verification)"));
    m_captcha = digitsEdit(kCodeDigits, QStringLiteral("captchaInput"), m_numberArea);
    m_captcha->setPlaceholderText(tr("6 digits"));
    QLabel *captchaError = FormErrors::makeLabel(m_numberArea);
    m_requestOtp = new QPushButton(tr("Send OTP to the customer"), m_numberArea);
    m_requestOtp->setObjectName(QStringLiteral("requestOtpButton"));

    auto *numberGrid = new QGridLayout(m_numberArea);
    numberGrid->setContentsMargins(0, 0, 0, 0);
    numberGrid->setColumnStretch(1, 1);
    numberGrid->addWidget(new QLabel(tr("Aadhaar number"), m_numberArea), 0, 0);
    numberGrid->addWidget(m_number, 0, 1, 1, 2);
    numberGrid->addWidget(m_numberCheck, 1, 1, 1, 2);
    numberGrid->addWidget(numberError, 2, 1, 1, 2);
    numberGrid->addWidget(new QLabel(tr("Captcha"), m_numberArea), 3, 0);
    numberGrid->addWidget(m_captchaImage, 3, 1, Qt::AlignLeft);
    numberGrid->addWidget(m_captchaRefresh, 3, 2);
    numberGrid->addWidget(new QLabel(tr("Digits in the picture"), m_numberArea), 4, 0);
    numberGrid->addWidget(m_captcha, 4, 1, 1, 2);
    numberGrid->addWidget(captchaError, 5, 1, 1, 2);
    numberGrid->addWidget(m_requestOtp, 6, 1, 1, 2);
    m_errors->addField(QStringLiteral("aadhaar_number"), numberError);
    m_errors->addField(QStringLiteral("captcha_value"), captchaError);

    auto *requestLayout = new QVBoxLayout(m_requestStep);
    requestLayout->setContentsMargins(0, 0, 0, 0);
    requestLayout->addWidget(consentText);
    requestLayout->addWidget(consent);
    requestLayout->addSpacing(8);
    requestLayout->addWidget(m_numberArea);
    requestLayout->addStretch();

    // Step 2: the OTP.
    m_otpStep = new QWidget(this);
    auto *otpTitle = new QLabel(tr("Ask the customer for the 6-digit OTP sent by SMS"), m_otpStep);
    otpTitle->setWordWrap(true);
    otpTitle->setStyleSheet(QStringLiteral("font-size: 18px; font-weight: 600;"));
    m_otpSent = new QLabel(m_otpStep);
    m_otpSent->setObjectName(QStringLiteral("otpSentMessage"));
    m_otpSent->setWordWrap(true);
    m_otp = digitsEdit(kCodeDigits, QStringLiteral("otpInput"), m_otpStep);
    m_otp->setPlaceholderText(tr("6-digit OTP"));
    QLabel *otpError = FormErrors::makeLabel(m_otpStep);
    m_errors->addField(QStringLiteral("otp_value"), otpError);
    m_otpCountdown = new QLabel(m_otpStep);
    m_otpCountdown->setObjectName(QStringLiteral("otpCountdown"));
    m_otpTries = new QLabel(m_otpStep);
    m_otpTries->setObjectName(QStringLiteral("otpTries"));
    m_verify = new QPushButton(tr("Verify OTP"), m_otpStep);
    m_verify->setObjectName(QStringLiteral("verifyOtpButton"));
    m_resend = new QPushButton(tr("Resend OTP"), m_otpStep);
    m_resend->setObjectName(QStringLiteral("resendOtpButton"));
    m_startOver = new QPushButton(tr("Start over"), m_otpStep);
    m_startOver->setObjectName(QStringLiteral("startOverButton"));

    auto *otpInfo = new QHBoxLayout;
    otpInfo->addWidget(m_otpCountdown);
    otpInfo->addStretch();
    otpInfo->addWidget(m_otpTries);
    auto *otpButtons = new QHBoxLayout;
    otpButtons->addWidget(m_verify, 2);
    otpButtons->addWidget(m_resend, 1);
    otpButtons->addWidget(m_startOver, 1);
    auto *otpLayout = new QVBoxLayout(m_otpStep);
    otpLayout->setContentsMargins(0, 0, 0, 0);
    otpLayout->addWidget(otpTitle);
    otpLayout->addWidget(m_otpSent);
    otpLayout->addWidget(m_otp);
    otpLayout->addWidget(otpError);
    otpLayout->addLayout(otpInfo);
    otpLayout->addLayout(otpButtons);
    otpLayout->addStretch();

    // Step 3: success, masked number only.
    m_successStep = new QWidget(this);
    auto *badge = new QLabel(tr("✔ Customer verified"), m_successStep);
    badge->setObjectName(QStringLiteral("verifiedBadge"));
    badge->setAlignment(Qt::AlignCenter);
    auto *maskedCaption = new QLabel(tr("Aadhaar number"), m_successStep);
    maskedCaption->setObjectName(QStringLiteral("hint"));
    m_maskedNumber = new QLabel(m_successStep);
    m_maskedNumber->setObjectName(QStringLiteral("maskedNumber"));
    m_maskedNumber->setAlignment(Qt::AlignCenter);
    m_successMessage = new QLabel(m_successStep);
    m_successMessage->setObjectName(QStringLiteral("successMessage"));
    m_successMessage->setWordWrap(true);
    m_successMessage->setAlignment(Qt::AlignCenter);
    m_another = new QPushButton(tr("Verify another customer"), m_successStep);
    m_another->setObjectName(QStringLiteral("verifyAnotherButton"));
    auto *successLayout = new QVBoxLayout(m_successStep);
    successLayout->setContentsMargins(0, 0, 0, 0);
    successLayout->addWidget(badge);
    successLayout->addSpacing(12);
    successLayout->addWidget(maskedCaption, 0, Qt::AlignHCenter);
    successLayout->addWidget(m_maskedNumber);
    successLayout->addWidget(m_successMessage);
    successLayout->addSpacing(12);
    successLayout->addWidget(m_another);
    successLayout->addStretch();

    m_steps = new QStackedWidget(this);
    m_steps->addWidget(m_requestStep);
    m_steps->addWidget(m_otpStep);
    m_steps->addWidget(m_successStep);

    auto *card = new QWidget(this);
    card->setObjectName(QStringLiteral("card"));
    card->setMaximumWidth(720);
    auto *cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(20, 16, 20, 16);
    cardLayout->addWidget(title);
    cardLayout->addWidget(general);
    cardLayout->addWidget(m_steps, 1);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(16, 16, 16, 16);
    layout->setSpacing(16);
    layout->addWidget(card, 3);

    if (m_context.api().isTestMode()) {
        m_sandboxPanel = new QWidget(this);
        m_sandboxPanel->setObjectName(QStringLiteral("card"));
        m_sandboxPanel->setMinimumWidth(300);
        m_sandboxPanel->setMaximumWidth(420);
        auto *sandboxTitle = new QLabel(tr("SANDBOX — SMS outbox"), m_sandboxPanel);
        sandboxTitle->setObjectName(QStringLiteral("sandboxTitle"));
        auto *sandboxHint = new QLabel(tr("Test mode: no real SMS is sent. The messages a customer would receive "
                                          "appear here, newest first."),
                                       m_sandboxPanel);
        sandboxHint->setObjectName(QStringLiteral("hint"));
        sandboxHint->setWordWrap(true);
        m_smsList = new QListWidget(m_sandboxPanel);
        m_smsList->setObjectName(QStringLiteral("smsOutbox"));
        m_smsList->setWordWrap(true);
        m_smsList->setFocusPolicy(Qt::NoFocus);
        m_smsList->setSelectionMode(QAbstractItemView::NoSelection);
        m_smsList->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
        m_smsList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_smsList->setResizeMode(QListView::Adjust);
        m_smsState = new QLabel(m_sandboxPanel);
        m_smsState->setObjectName(QStringLiteral("hint"));
        m_smsState->setWordWrap(true);
        auto *smsRefresh = new QPushButton(tr("Refresh outbox"), m_sandboxPanel);
        smsRefresh->setObjectName(QStringLiteral("smsRefresh"));
        smsRefresh->setFocusPolicy(Qt::NoFocus);
        connect(smsRefresh, &QPushButton::clicked, this, &VerifyPage::refreshSms);
        auto *sandboxLayout = new QVBoxLayout(m_sandboxPanel);
        sandboxLayout->addWidget(sandboxTitle);
        sandboxLayout->addWidget(sandboxHint);
        sandboxLayout->addWidget(m_smsList, 1);
        sandboxLayout->addWidget(m_smsState);
        sandboxLayout->addWidget(smsRefresh);
        layout->addWidget(m_sandboxPanel, 2);
    } else {
        layout->addStretch(1);
    }

    setTabOrder(m_consent, m_number);
    setTabOrder(m_number, m_captcha);
    setTabOrder(m_captcha, m_requestOtp);
    setTabOrder(m_requestOtp, m_captchaRefresh);
    setTabOrder(m_otp, m_verify);
    setTabOrder(m_verify, m_resend);
    setTabOrder(m_resend, m_startOver);

    connect(m_consent, &QCheckBox::toggled, this, &VerifyPage::onConsentToggled);
    connect(m_number, &QLineEdit::textEdited, this, &VerifyPage::onNumberEdited);
    connect(m_number, &QLineEdit::returnPressed, m_captcha, qOverload<>(&QWidget::setFocus));
    connect(m_captcha, &QLineEdit::returnPressed, this, &VerifyPage::onRequestOtpClicked);
    connect(m_requestOtp, &QPushButton::clicked, this, &VerifyPage::onRequestOtpClicked);
    connect(m_captchaRefresh, &QPushButton::clicked, this, [this] {
        m_errors->clear();
        initiate();
        m_captcha->setFocus();
    });
    connect(m_otp, &QLineEdit::returnPressed, this, &VerifyPage::onVerifyClicked);
    connect(m_verify, &QPushButton::clicked, this, &VerifyPage::onVerifyClicked);
    connect(m_resend, &QPushButton::clicked, this, &VerifyPage::onResendClicked);
    connect(m_startOver, &QPushButton::clicked, this, [this] { restartFlow(QString()); });
    connect(m_another, &QPushButton::clicked, this, &VerifyPage::reset);
    // Enter on a focused button presses it (QPushButton does that outside dialogs only when auto-default).
    for (QPushButton *button : {m_captchaRefresh, m_requestOtp, m_verify, m_resend, m_startOver, m_another})
        button->setAutoDefault(true);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &VerifyPage::onTick);

    reset();
}

VerifyPage::~VerifyPage() = default;

void VerifyPage::reset()
{
    ++m_generation;
    m_tick.stop();
    m_throttle = Throttle();
    m_transactionId = 0;
    m_sentNumber.clear();
    m_sentCaptcha.clear();
    m_lastDigits.clear();
    m_busy = false;
    m_errors->clear();
    m_number->setText(QString()); // unlike clear(), also drops the undo history holding the number
    m_captcha->clear();
    m_otp->clear();
    m_captchaImage->setPixmap(QPixmap());
    m_captchaImage->setText(tr("The captcha appears here"));
    {
        const QSignalBlocker blocker(m_consent);
        m_consent->setChecked(false);
    }
    m_numberArea->setEnabled(false);
    updateNumberCheck();
    m_steps->setCurrentWidget(m_requestStep);
    m_consent->setFocus();
}

QString VerifyPage::groupDigits(const QString &text)
{
    const QString digits = digitsOf(text).left(kAadhaarDigits);
    QString grouped;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        if (i > 0 && i % 4 == 0)
            grouped.append(QLatin1Char(' '));
        grouped.append(digits.at(i));
    }
    return grouped;
}

QString VerifyPage::maskNumber(const QString &number)
{
    const QString digits = digitsOf(number);
    if (digits.size() < 4)
        return {};
    return QStringLiteral("XXXX XXXX ") + digits.right(4);
}

bool VerifyPage::eventFilter(QObject *watched, QEvent *event)
{
    // Enter on the consent box ticks it, so the whole flow runs from the keyboard.
    if (watched == m_consent && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            if (!m_consent->isChecked())
                m_consent->setChecked(true);
            else
                m_number->setFocus();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void VerifyPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_smsList && m_smsList->count() == 0)
        refreshSms();
}

void VerifyPage::onConsentToggled(bool checked)
{
    m_errors->clear();
    if (!checked) {
        reset();
        return;
    }
    m_numberArea->setEnabled(true);
    initiate();
    m_number->setFocus();
}

void VerifyPage::onNumberEdited(const QString &text)
{
    QString digits = digitsOf(text);
    int cursorDigits = int(digitsOf(text.left(m_number->cursorPosition())).size());
    // A backspace that only removed a group blank removes the digit before it instead.
    if (digits == m_lastDigits && text.size() < groupDigits(m_lastDigits).size() && cursorDigits > 0) {
        digits.remove(cursorDigits - 1, 1);
        --cursorDigits;
    }
    const QString grouped = groupDigits(digits);
    if (grouped != text) {
        m_number->setText(grouped);
        int position = 0;
        for (int seen = 0; position < grouped.size() && seen < cursorDigits; ++position) {
            if (grouped.at(position) != QLatin1Char(' '))
                ++seen;
        }
        m_number->setCursorPosition(position);
    }
    m_lastDigits = digitsOf(grouped);
    updateNumberCheck();
    // The wait is per Aadhaar number: another customer's number need not wait.
    if (m_throttle.active() && !m_throttle.resend && m_lastDigits != m_throttle.number)
        endThrottle();
}

void VerifyPage::updateNumberCheck()
{
    const QString digits = digitsOf(m_number->text());
    QString text;
    QString state;
    if (digits.isEmpty()) {
        text = tr("12 digits, as printed on the Aadhaar card (grouped 4-4-4 as you type).");
    } else if (digits.front() == QLatin1Char('0') || digits.front() == QLatin1Char('1')) {
        text = tr("✘ An Aadhaar number never starts with 0 or 1. Check the first digit.");
        state = QStringLiteral("bad");
    } else if (digits.size() < kAadhaarDigits) {
        text = tr("%1 of 12 digits").arg(digits.size());
    } else if (Validators::isAadhaarNumber(digits)) {
        text = tr("✔ Valid Aadhaar number (check digit correct)");
        state = QStringLiteral("ok");
    } else {
        text = tr("✘ Not a valid Aadhaar number: the check digit does not match. Check every digit against the card.");
        state = QStringLiteral("bad");
    }
    m_numberCheck->setText(text);
    setState(m_numberCheck, "state", state);
    setState(m_number, "invalid", state == QLatin1String("bad"));
}

void VerifyPage::initiate()
{
    const int generation = ++m_generation;
    m_transactionId = 0;
    m_sentNumber.clear();
    m_sentCaptcha.clear();
    m_captcha->clear();
    m_captchaImage->setPixmap(QPixmap());
    m_captchaImage->setText(tr("Loading captcha…"));
    ApiCall *call = m_context.api().get(kFlowPath + QStringLiteral("initiate-transaction"));
    connect(call, &ApiCall::finished, this, [this, generation](const ApiResult &result) {
        if (generation != m_generation)
            return;
        if (!result.ok()) {
            m_captchaImage->setText(tr("No captcha"));
            m_errors->showAt(QString(), tr("Could not start the verification: %1").arg(result.error->description()));
            return;
        }
        m_transactionId = result.data.value(QStringLiteral("transaction_id")).toInteger();
        QUrl url(result.data.value(QStringLiteral("captcha")).toString());
        if (url.isRelative())
            url = m_context.api().baseUrl().resolved(url);
        loadCaptcha(url, generation);
    });
}

void VerifyPage::loadCaptcha(const QUrl &url, int generation)
{
    ApiCall *call = m_context.api().fetch(url);
    connect(call, &ApiCall::finished, this, [this, generation](const ApiResult &result) {
        if (generation != m_generation)
            return;
        QPixmap image;
        if (!result.ok() || !image.loadFromData(result.body)) {
            m_captchaImage->setText(tr("The captcha could not be loaded. Press New captcha."));
            return;
        }
        m_captchaImage->setPixmap(image.height() > 90 ? image.scaledToHeight(90, Qt::SmoothTransformation) : image);
    });
}

void VerifyPage::onRequestOtpClicked()
{
    if (m_busy || !m_consent->isChecked() || (m_throttle.active() && !m_throttle.resend))
        return;
    m_errors->clear();
    const QString digits = digitsOf(m_number->text());
    if (!Validators::isAadhaarNumber(digits)) {
        m_errors->showAt(QStringLiteral("aadhaar_number"), digits.size() < kAadhaarDigits
                                                               ? tr("Type all 12 digits of the Aadhaar number.")
                                                               : tr("This is not a valid Aadhaar number."));
        m_number->setFocus();
        return;
    }
    if (m_captcha->text().size() != kCodeDigits) {
        m_errors->showAt(QStringLiteral("captcha_value"), tr("Type the 6 digits shown in the captcha picture."));
        m_captcha->setFocus();
        return;
    }
    if (m_transactionId == 0) {
        m_errors->showAt(QStringLiteral("captcha_value"), tr("The captcha is still loading. Wait a moment."));
        return;
    }
    sendOtpRequest(digits, m_captcha->text(), false);
}

void VerifyPage::onResendClicked()
{
    if (m_busy || m_sentNumber.isEmpty())
        return;
    m_errors->clear();
    sendOtpRequest(m_sentNumber, m_sentCaptcha, true);
}

void VerifyPage::sendOtpRequest(const QString &number, const QString &captcha, bool resend)
{
    setBusy(true);
    const int generation = m_generation;
    ApiCall *call = m_context.api().post(kFlowPath + QStringLiteral("request-otp"),
                                         QJsonObject{{QStringLiteral("transaction_id"), m_transactionId},
                                                     {QStringLiteral("aadhaar_number"), number},
                                                     {QStringLiteral("captcha_value"), captcha}});
    connect(call, &ApiCall::finished, this, [this, generation, number, captcha, resend](const ApiResult &result) {
        if (generation != m_generation)
            return;
        setBusy(false);
        if (!result.ok()) {
            onOtpRequestFailed(*result.error, result.retryAfterSeconds, resend);
            return;
        }
        m_sentNumber = number;
        m_sentCaptcha = captcha;
        m_otpDeadline = QDeadlineTimer(kOtpValidityMs);
        m_resendDeadline = QDeadlineTimer();
        if (!resend)
            m_triesLeft = kOtpTries;
        m_otpSent->setText(result.data.value(QStringLiteral("msg")).toString());
        m_otp->clear();
        m_steps->setCurrentWidget(m_otpStep);
        updateTries();
        onTick();
        m_tick.start();
        m_otp->setFocus();
        refreshSms();
    });
}

void VerifyPage::onOtpRequestFailed(const ApiError &error, int retryAfterSeconds, bool resend)
{
    const QString &reason = error.reason();
    if (error.httpStatus() == 429) {
        const int wait = qMax(1, retryAfterSeconds);
        if (resend)
            m_resendDeadline = QDeadlineTimer(qint64(wait) * 1000);
        startThrottle(wait, resend);
        if (resend)
            m_otp->setFocus();
        return;
    }
    if (reason == QLatin1String("captcha_mismatch")) {
        const int left = attemptsLeft(error.description(), -1);
        if (left == 0) {
            restartFlow(tr("Three wrong captcha answers closed this verification. Here is a new captcha."));
            return;
        }
        m_captcha->clear();
        m_captcha->setFocus();
        m_errors->showAt(QStringLiteral("captcha_value"),
                         tr("The captcha answer is wrong. Look at the picture again (%1).").arg(triesLeftText(left)));
        return;
    }
    if (reason == QLatin1String("captcha_expired")) {
        restartFlow(tr("The captcha expired after 10 minutes. Here is a new one."));
        return;
    }
    if (reason == QLatin1String("invalid_aadhaar_number")) {
        m_errors->showAt(QStringLiteral("aadhaar_number"), tr("This is not a valid Aadhaar number."));
        m_number->setFocus();
        return;
    }
    if (reason == QLatin1String("no_mobile_linked")) {
        m_errors->showAt(QStringLiteral("aadhaar_number"),
                         tr("No mobile number is linked with this Aadhaar, so no OTP can be sent. The customer must "
                            "link a mobile number at an Aadhaar enrolment centre."));
        return;
    }
    if (error.httpStatus() == 409) {
        restartFlow(tr("This verification can no longer continue (%1). Start again with the new captcha.")
                        .arg(error.description()));
        return;
    }
    m_errors->show(error);
}

void VerifyPage::onVerifyClicked()
{
    if (m_busy || m_transactionId == 0)
        return;
    m_errors->clear();
    if (m_throttle.resend)
        m_throttle = Throttle(); // the Resend button keeps counting; this answer gets the message line
    if (m_otp->text().size() != kCodeDigits) {
        m_errors->showAt(QStringLiteral("otp_value"), tr("Type the 6-digit OTP from the customer's SMS."));
        m_otp->setFocus();
        return;
    }
    setBusy(true);
    const int generation = m_generation;
    ApiCall *call = m_context.api().post(
        kFlowPath + QStringLiteral("verify-otp"),
        QJsonObject{{QStringLiteral("transaction_id"), m_transactionId}, {QStringLiteral("otp_value"), m_otp->text()}});
    connect(call, &ApiCall::finished, this, [this, generation](const ApiResult &result) {
        if (generation != m_generation)
            return;
        setBusy(false);
        if (!result.ok()) {
            onVerifyFailed(*result.error);
            return;
        }
        const QString number = result.data.value(QStringLiteral("aadhaar_number")).toString();
        showSuccess(number.isEmpty() ? m_sentNumber : number);
    });
}

void VerifyPage::onVerifyFailed(const ApiError &error)
{
    const QString &reason = error.reason();
    if (reason == QLatin1String("otp_mismatch")) {
        m_triesLeft = attemptsLeft(error.description(), m_triesLeft - 1);
        updateTries();
        if (m_triesLeft <= 0) {
            restartFlow(tr("Three wrong OTPs closed this verification. Start again with the new captcha."));
            return;
        }
        m_otp->clear();
        m_otp->setFocus();
        m_errors->showAt(QStringLiteral("otp_value"),
                         tr("Wrong OTP. Ask the customer to read it again (%1).").arg(triesLeftText(m_triesLeft)));
        return;
    }
    if (reason == QLatin1String("otp_expired")) {
        m_errors->showAt(QStringLiteral("otp_value"), tr("The OTP has expired. Press Resend OTP to send a new one."));
        m_resend->setFocus();
        return;
    }
    if (error.httpStatus() == 409) {
        restartFlow(tr("This verification can no longer continue (%1). Start again with the new captcha.")
                        .arg(error.description()));
        return;
    }
    m_errors->show(error);
}

void VerifyPage::restartFlow(const QString &why)
{
    m_tick.stop();
    m_throttle = Throttle();
    m_errors->clear();
    m_otp->clear();
    m_steps->setCurrentWidget(m_requestStep);
    if (!why.isEmpty())
        m_errors->showAt(QString(), why);
    initiate();
    m_captcha->setFocus();
}

void VerifyPage::showSuccess(const QString &number)
{
    const QString masked = maskNumber(number);
    ++m_generation;
    m_tick.stop();
    m_throttle = Throttle();
    m_transactionId = 0;
    m_sentNumber.clear();
    m_sentCaptcha.clear();
    m_lastDigits.clear();
    m_number->setText(QString()); // unlike clear(), also drops the undo history holding the number
    m_captcha->clear();
    m_otp->clear();
    m_captchaImage->setPixmap(QPixmap());
    m_errors->clear();
    updateNumberCheck();
    m_maskedNumber->setText(masked);
    m_successMessage->setText(tr("Identity confirmed by Aadhaar OTP at %1. The full number has been cleared "
                                 "from this screen.")
                                  .arg(IstTime::timeOfDay(QDateTime::currentDateTimeUtc())));
    m_steps->setCurrentWidget(m_successStep);
    m_another->setFocus();
    emit customerVerified(masked);
}

void VerifyPage::startThrottle(int seconds, bool resend)
{
    m_throttle.deadline = QDeadlineTimer(qint64(seconds) * 1000);
    m_throttle.resend = resend;
    m_throttle.number = resend ? m_sentNumber : digitsOf(m_number->text());
    onTick();
    m_tick.start();
}

bool VerifyPage::tickThrottle()
{
    if (!m_throttle.active())
        return false;
    const qint64 left = secondsLeft(m_throttle.deadline);
    if (left <= 0) {
        endThrottle();
        return false;
    }
    if (m_throttle.resend)
        m_errors->showAt(QStringLiteral("otp_value"),
                         tr("An OTP was sent a moment ago. Resend is possible again in %1.").arg(minutesSeconds(left)));
    else
        m_errors->showAt(QStringLiteral("aadhaar_number"),
                         tr("Too many OTPs for this Aadhaar number. Try again in %1.").arg(minutesSeconds(left)));
    m_requestOtp->setEnabled(false);
    return true;
}

void VerifyPage::endThrottle()
{
    if (!m_throttle.active())
        return;
    m_throttle = Throttle();
    m_errors->clear();
    setBusy(m_busy);
}

void VerifyPage::onTick()
{
    const bool throttled = tickThrottle();
    if (m_steps->currentWidget() != m_otpStep) {
        if (!throttled)
            m_tick.stop();
        return;
    }
    const qint64 otpLeft = secondsLeft(m_otpDeadline);
    if (otpLeft > 0) {
        m_otpCountdown->setText(tr("OTP valid for %1").arg(minutesSeconds(otpLeft)));
        setState(m_otpCountdown, "state", QString());
    } else {
        m_otpCountdown->setText(tr("OTP expired — press Resend OTP"));
        setState(m_otpCountdown, "state", QStringLiteral("bad"));
    }
    const qint64 resendLeft = m_resendDeadline.isForever() ? 0 : secondsLeft(m_resendDeadline);
    if (resendLeft > 0) {
        m_resend->setText(tr("Resend in %1").arg(minutesSeconds(resendLeft)));
        m_resend->setEnabled(false);
    } else {
        m_resend->setText(tr("Resend OTP"));
        m_resend->setEnabled(!m_busy);
    }
}

void VerifyPage::updateTries()
{
    m_otpTries->setText(triesLeftText(m_triesLeft));
}

QString VerifyPage::triesLeftText(int left)
{
    if (left < 0)
        return tr("check the answer");
    return left == 1 ? tr("1 try left") : tr("%1 tries left").arg(left);
}

void VerifyPage::setBusy(bool busy)
{
    m_busy = busy;
    m_requestOtp->setEnabled(!busy && (!m_throttle.active() || m_throttle.resend));
    m_captchaRefresh->setEnabled(!busy);
    m_verify->setEnabled(!busy);
    m_startOver->setEnabled(!busy);
    m_resend->setEnabled(!busy && (m_resendDeadline.isForever() || m_resendDeadline.hasExpired()));
}

void VerifyPage::refreshSms()
{
    if (!m_smsList)
        return;
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QString::number(kSmsShown));
    ApiCall *call = m_context.api().get(QStringLiteral("/api/v1/sandbox/sms"), query);
    connect(call, &ApiCall::finished, this, [this](const ApiResult &result) {
        if (!result.ok()) {
            m_smsState->setText(result.error->httpStatus() == 404
                                    ? tr("The SMS outbox can be read with an admin test key only.")
                                    : tr("Could not read the SMS outbox: %1").arg(result.error->description()));
            return;
        }
        m_smsList->clear();
        const QJsonArray items = result.data.value(QStringLiteral("items")).toArray();
        for (const QJsonValue &value : items) {
            const QJsonObject sms = value.toObject();
            m_smsList->addItem(tr("%1 · to %2\n%3")
                                   .arg(sms.value(QStringLiteral("datetime")).toString(),
                                        sms.value(QStringLiteral("mobile")).toString(),
                                        sms.value(QStringLiteral("message")).toString()));
        }
        m_smsState->setText(items.isEmpty()
                                ? tr("No messages yet.")
                                : tr("Updated %1").arg(IstTime::timeOfDay(QDateTime::currentDateTimeUtc(), true)));
    });
}
