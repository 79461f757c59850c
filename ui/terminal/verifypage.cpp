#include "verifypage.h"

#include "clock.h"
#include "validators.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"
#include "widgets/wrappedcheckbox.h"

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QStackedWidget>
#include <QStyle>
#include <QVBoxLayout>

namespace {

constexpr int kSmsShown = 20;

QString minutesSeconds(qint64 seconds)
{
    return QStringLiteral("%1:%2")
        .arg(seconds / 60, 2, 10, QLatin1Char('0'))
        .arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

void setState(QWidget *widget, const char *name, const QVariant &value)
{
    widget->setProperty(name, value);
    widget->style()->unpolish(widget);
    widget->style()->polish(widget);
}

} // namespace

VerifyPage::VerifyPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_flow(new AadhaarFlow(context.api(), this)), m_api(context.api())
{
    setObjectName(QStringLiteral("page"));

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
    consent->label()->setObjectName(QStringLiteral("consentLabel"));
    m_consent = consent->checkBox();
    m_consent->setObjectName(QStringLiteral("consentCheck"));
    m_consent->installEventFilter(this);

    m_numberArea = new QWidget(m_requestStep);
    m_number = new QLineEdit(m_numberArea);
    m_number->setObjectName(QStringLiteral("aadhaarInput"));
    m_number->setPlaceholderText(QStringLiteral("0000 0000 0000"));
    m_number->setInputMethodHints(Qt::ImhDigitsOnly);
    m_number->setMaxLength(AadhaarFlow::kAadhaarDigits +
                           6); // room for pasted separators; the formatter keeps 12 digits
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
    m_captcha = new DigitsLineEdit(DigitsLineEdit::Kind::Digits, AadhaarFlow::kCodeDigits, m_numberArea);
    m_captcha->setObjectName(QStringLiteral("captchaInput"));
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
    otpTitle->setObjectName(QStringLiteral("otpTitle"));
    m_otpSent = new QLabel(m_otpStep);
    m_otpSent->setObjectName(QStringLiteral("otpSentMessage"));
    m_otpSent->setWordWrap(true);
    m_otp = new DigitsLineEdit(DigitsLineEdit::Kind::Digits, AadhaarFlow::kCodeDigits, m_otpStep);
    m_otp->setObjectName(QStringLiteral("otpInput"));
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

    buildSandboxPanel(layout);

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
    const auto requestOtp = [this] {
        if (!m_flow->canRequestOtp())
            return;
        m_errors->clear();
        m_flow->requestOtp(AadhaarFlow::digitsOf(m_number->text()), m_captcha->text());
    };
    connect(m_captcha, &QLineEdit::returnPressed, this, requestOtp);
    connect(m_requestOtp, &QPushButton::clicked, this, requestOtp);
    connect(m_captchaRefresh, &QPushButton::clicked, this, [this] {
        m_errors->clear();
        m_flow->restart();
        m_captcha->setFocus();
    });
    const auto verifyOtp = [this] {
        if (m_flow->isBusy())
            return;
        m_errors->clear();
        m_flow->verifyOtp(m_otp->text());
    };
    connect(m_otp, &QLineEdit::returnPressed, this, verifyOtp);
    connect(m_verify, &QPushButton::clicked, this, verifyOtp);
    connect(m_resend, &QPushButton::clicked, this, [this] {
        if (m_flow->isBusy())
            return;
        m_errors->clear();
        m_flow->resendOtp();
    });
    connect(m_startOver, &QPushButton::clicked, this, [this] {
        m_errors->clear();
        m_flow->restart();
        m_captcha->setFocus();
    });
    connect(m_another, &QPushButton::clicked, this, &VerifyPage::reset);
    // Enter on a focused button presses it (QPushButton does that outside dialogs only when auto-default).
    for (QPushButton *button : {m_captchaRefresh, m_requestOtp, m_verify, m_resend, m_startOver, m_another})
        button->setAutoDefault(true);

    connect(m_flow, &AadhaarFlow::stepChanged, this, &VerifyPage::onStepChanged);
    connect(m_flow, &AadhaarFlow::busyChanged, this, &VerifyPage::updateButtons);
    connect(m_flow, &AadhaarFlow::failed, this, &VerifyPage::onFailed);
    connect(m_flow, &AadhaarFlow::otpSent, this, &VerifyPage::onOtpSent);
    connect(m_flow, &AadhaarFlow::triesLeftChanged, this, &VerifyPage::updateTries);
    connect(m_flow, &AadhaarFlow::ticked, this, &VerifyPage::onTick);
    connect(m_flow, &AadhaarFlow::throttleEnded, this, [this] {
        m_errors->clear();
        updateButtons();
    });
    connect(m_flow, &AadhaarFlow::captchaLoading, this, [this] {
        m_captcha->clear();
        m_captchaImage->setPixmap(QPixmap());
        m_captchaImage->setText(tr("Loading captcha…"));
    });
    connect(m_flow, &AadhaarFlow::captchaLoaded, this, &VerifyPage::onCaptchaLoaded);
    connect(m_flow, &AadhaarFlow::captchaFailed, this, [this] {
        m_captchaImage->setText(m_flow->transactionId() == 0
                                    ? tr("No captcha")
                                    : tr("The captcha could not be loaded. Press New captcha."));
    });
    connect(m_flow, &AadhaarFlow::verified, this, &VerifyPage::onVerified);

    reset();
}

void VerifyPage::buildSandboxPanel(QBoxLayout *layout)
{
    if (m_context.api().isTestMode()) {
        auto *sandboxPanel = new QWidget(this);
        sandboxPanel->setObjectName(QStringLiteral("card"));
        sandboxPanel->setMinimumWidth(300);
        sandboxPanel->setMaximumWidth(420);
        auto *sandboxTitle = new QLabel(tr("SANDBOX — SMS outbox"), sandboxPanel);
        sandboxTitle->setObjectName(QStringLiteral("sandboxTitle"));
        auto *sandboxHint = new QLabel(tr("Test mode: no real SMS is sent. The messages a customer would receive "
                                          "appear here, newest first."),
                                       sandboxPanel);
        sandboxHint->setObjectName(QStringLiteral("hint"));
        sandboxHint->setWordWrap(true);
        m_smsList = new QListWidget(sandboxPanel);
        m_smsList->setObjectName(QStringLiteral("smsOutbox"));
        m_smsList->setWordWrap(true);
        m_smsList->setFocusPolicy(Qt::NoFocus);
        m_smsList->setSelectionMode(QAbstractItemView::NoSelection);
        m_smsList->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
        m_smsList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_smsList->setResizeMode(QListView::Adjust);
        m_smsState = new QLabel(sandboxPanel);
        m_smsState->setObjectName(QStringLiteral("hint"));
        m_smsState->setWordWrap(true);
        auto *smsRefresh = new QPushButton(tr("Refresh outbox"), sandboxPanel);
        smsRefresh->setObjectName(QStringLiteral("smsRefresh"));
        smsRefresh->setFocusPolicy(Qt::NoFocus);
        connect(smsRefresh, &QPushButton::clicked, this, &VerifyPage::refreshSms);
        auto *sandboxLayout = new QVBoxLayout(sandboxPanel);
        sandboxLayout->addWidget(sandboxTitle);
        sandboxLayout->addWidget(sandboxHint);
        sandboxLayout->addWidget(m_smsList, 1);
        sandboxLayout->addWidget(m_smsState);
        sandboxLayout->addWidget(smsRefresh);
        layout->addWidget(sandboxPanel, 2);
    } else {
        layout->addStretch(1);
    }
}

VerifyPage::~VerifyPage() = default;

void VerifyPage::reset()
{
    m_flow->reset();
    m_lastDigits.clear();
    m_errors->clear();
    clearInputs();
    m_captchaImage->setText(tr("The captcha appears here"));
    {
        const QSignalBlocker blocker(m_consent);
        m_consent->setChecked(false);
    }
    m_numberArea->setEnabled(false);
    updateNumberCheck();
    m_steps->setCurrentWidget(m_requestStep);
    updateButtons();
    m_consent->setFocus();
}

void VerifyPage::clearInputs()
{
    m_number->setText(QString()); // unlike clear(), also drops the undo history holding the number
    m_captcha->clear();
    m_otp->clear();
    m_captchaImage->setPixmap(QPixmap());
}

QString VerifyPage::groupDigits(const QString &text)
{
    const QString digits = AadhaarFlow::digitsOf(text).left(AadhaarFlow::kAadhaarDigits);
    QString grouped;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        if (i > 0 && i % 4 == 0)
            grouped.append(QLatin1Char(' '));
        grouped.append(digits.at(i));
    }
    return grouped;
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
    m_flow->giveConsent();
    m_number->setFocus();
}

void VerifyPage::onNumberEdited(const QString &text)
{
    QString digits = AadhaarFlow::digitsOf(text);
    int cursorDigits = int(AadhaarFlow::digitsOf(text.left(m_number->cursorPosition())).size());
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
    m_lastDigits = AadhaarFlow::digitsOf(grouped);
    updateNumberCheck();
    m_flow->numberEdited(m_lastDigits); // the wait is per Aadhaar number: another customer's need not wait
}

void VerifyPage::updateNumberCheck()
{
    const QString digits = AadhaarFlow::digitsOf(m_number->text());
    QString text;
    QString state;
    if (digits.isEmpty()) {
        text = tr("12 digits, as printed on the Aadhaar card (grouped 4-4-4 as you type).");
    } else if (digits.front() == QLatin1Char('0') || digits.front() == QLatin1Char('1')) {
        text = tr("✘ An Aadhaar number never starts with 0 or 1. Check the first digit.");
        state = QStringLiteral("bad");
    } else if (digits.size() < AadhaarFlow::kAadhaarDigits) {
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

void VerifyPage::onCaptchaLoaded(const QByteArray &png)
{
    QPixmap image;
    if (!image.loadFromData(png)) {
        m_captchaImage->setText(tr("The captcha could not be loaded. Press New captcha."));
        return;
    }
    m_captchaImage->setPixmap(image.height() > 90 ? image.scaledToHeight(90, Qt::SmoothTransformation) : image);
}

void VerifyPage::onStepChanged(AadhaarFlow::Step step)
{
    switch (step) {
    case AadhaarFlow::Step::Consent:
    case AadhaarFlow::Step::Number:
        m_otp->clear();
        m_steps->setCurrentWidget(m_requestStep);
        break;
    case AadhaarFlow::Step::Otp:
        m_steps->setCurrentWidget(m_otpStep);
        break;
    case AadhaarFlow::Step::Verified:
        m_steps->setCurrentWidget(m_successStep);
        break;
    }
    updateButtons();
}

void VerifyPage::onOtpSent()
{
    m_otpSent->setText(m_flow->otpMessage());
    m_otp->clear();
    updateTries();
    m_otp->setFocus();
    refreshSms();
}

void VerifyPage::onFailed(const AadhaarFlow::Problem &problem)
{
    using Failure = AadhaarFlow::Failure;
    if (problem.failure == Failure::Throttled) {
        showThrottle();
        if (m_flow->isThrottleOnResend())
            m_otp->setFocus();
        return;
    }
    m_errors->showAt(problem.field, describe(problem));
    switch (problem.failure) {
    case Failure::NumberIncomplete:
    case Failure::NumberInvalid:
        m_number->setFocus();
        break;
    case Failure::CaptchaWrong:
        m_captcha->clear();
        [[fallthrough]];
    case Failure::CaptchaIncomplete:
        m_captcha->setFocus();
        break;
    case Failure::OtpWrong:
        m_otp->clear();
        [[fallthrough]];
    case Failure::OtpIncomplete:
        m_otp->setFocus();
        break;
    case Failure::OtpExpired:
        m_resend->setFocus();
        break;
    case Failure::CaptchaClosed:
    case Failure::CaptchaExpired:
    case Failure::OtpClosed:
    case Failure::FlowEnded:
        m_captcha->setFocus();
        break;
    default:
        break;
    }
}

QString VerifyPage::describe(const AadhaarFlow::Problem &problem)
{
    using Failure = AadhaarFlow::Failure;
    const QString said = problem.error ? problem.error->description() : QString();
    switch (problem.failure) {
    case Failure::NumberIncomplete:
        return tr("Type all 12 digits of the Aadhaar number.");
    case Failure::NumberInvalid:
        return tr("This is not a valid Aadhaar number.");
    case Failure::NoMobileLinked:
        return tr("No mobile number is linked with this Aadhaar, so no OTP can be sent. The customer must link a "
                  "mobile number at an Aadhaar enrolment centre.");
    case Failure::CaptchaIncomplete:
        return tr("Type the 6 digits shown in the captcha picture.");
    case Failure::CaptchaLoading:
        return tr("The captcha is still loading. Wait a moment.");
    case Failure::CaptchaWrong:
        return tr("The captcha answer is wrong. Look at the picture again (%1).")
            .arg(triesLeftText(problem.attemptsLeft));
    case Failure::OtpIncomplete:
        return tr("Type the 6-digit OTP from the customer's SMS.");
    case Failure::OtpWrong:
        return tr("Wrong OTP. Ask the customer to read it again (%1).").arg(triesLeftText(problem.attemptsLeft));
    case Failure::OtpExpired:
        return tr("The OTP has expired. Press Resend OTP to send a new one.");
    case Failure::StartFailed:
        return tr("Could not start the verification: %1").arg(said);
    case Failure::CaptchaClosed:
        return tr("Three wrong captcha answers closed this verification. Here is a new captcha.");
    case Failure::CaptchaExpired:
        return tr("The captcha expired after 10 minutes. Here is a new one.");
    case Failure::OtpClosed:
        return tr("Three wrong OTPs closed this verification. Start again with the new captcha.");
    case Failure::FlowEnded:
        return tr("This verification can no longer continue (%1). Start again with the new captcha.").arg(said);
    case Failure::Throttled: // counted down by showThrottle()
    case Failure::Other:
        break;
    }
    return said;
}

void VerifyPage::onVerified(const QString &masked)
{
    m_lastDigits.clear();
    clearInputs();
    m_errors->clear();
    updateNumberCheck();
    m_maskedNumber->setText(masked);
    m_successMessage->setText(tr("Identity confirmed by Aadhaar OTP at %1. The full number has been cleared "
                                 "from this screen.")
                                  .arg(IstTime::timeOfDay(QDateTime::currentDateTimeUtc())));
    m_another->setFocus();
    emit customerVerified(masked);
}

bool VerifyPage::showThrottle()
{
    const qint64 left = m_flow->throttleSecondsLeft();
    if (left <= 0)
        return false;
    if (m_flow->isThrottleOnResend())
        m_errors->showAt(QStringLiteral("otp_value"),
                         tr("An OTP was sent a moment ago. Resend is possible again in %1.").arg(minutesSeconds(left)));
    else
        m_errors->showAt(QStringLiteral("aadhaar_number"),
                         tr("Too many OTPs for this Aadhaar number. Try again in %1.").arg(minutesSeconds(left)));
    return true;
}

void VerifyPage::onTick()
{
    showThrottle();
    if (m_flow->step() == AadhaarFlow::Step::Otp) {
        const qint64 otpLeft = m_flow->otpSecondsLeft();
        if (otpLeft > 0) {
            m_otpCountdown->setText(tr("OTP valid for %1").arg(minutesSeconds(otpLeft)));
            setState(m_otpCountdown, "state", QString());
        } else {
            m_otpCountdown->setText(tr("OTP expired — press Resend OTP"));
            setState(m_otpCountdown, "state", QStringLiteral("bad"));
        }
    }
    updateButtons();
}

void VerifyPage::updateTries()
{
    m_otpTries->setText(triesLeftText(m_flow->triesLeft()));
}

QString VerifyPage::triesLeftText(int left)
{
    if (left < 0)
        return tr("check the answer");
    return left == 1 ? tr("1 try left") : tr("%1 tries left").arg(left);
}

void VerifyPage::updateButtons()
{
    const bool busy = m_flow->isBusy();
    m_requestOtp->setEnabled(m_flow->step() != AadhaarFlow::Step::Number || m_flow->canRequestOtp());
    m_captchaRefresh->setEnabled(!busy);
    m_verify->setEnabled(!busy);
    m_startOver->setEnabled(!busy);
    const qint64 resendLeft = m_flow->resendSecondsLeft();
    if (resendLeft > 0) {
        m_resend->setText(tr("Resend in %1").arg(minutesSeconds(resendLeft)));
        m_resend->setEnabled(false);
    } else {
        m_resend->setText(tr("Resend OTP"));
        m_resend->setEnabled(!busy);
    }
}

void VerifyPage::refreshSms()
{
    if (!m_smsList)
        return;
    m_api.sandboxSms(kSmsShown).then(this, [this](const Answer<Collection<SandboxSms>> &answer) {
        if (!answer.ok()) {
            m_smsState->setText(answer.error->httpStatus() == 404
                                    ? tr("The SMS outbox can be read with an admin test key only.")
                                    : tr("Could not read the SMS outbox: %1").arg(answer.error->description()));
            return;
        }
        m_smsList->clear();
        for (const SandboxSms &sms : answer.value->items)
            m_smsList->addItem(tr("%1 · to %2\n%3").arg(sms.datetime, sms.mobile, sms.message));
        m_smsState->setText(answer.value->items.isEmpty()
                                ? tr("No messages yet.")
                                : tr("Updated %1").arg(IstTime::timeOfDay(QDateTime::currentDateTimeUtc(), true)));
    });
}
