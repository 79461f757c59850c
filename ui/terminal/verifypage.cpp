#include "verifypage.h"

#include "clock.h"
#include "ui_verifypage.h"
#include "validators.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"
#include "widgets/verticalscroll.h"
#include "widgets/wrappedcheckbox.h"

#include <QCheckBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QStyle>

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
    : QWidget(parent), m_context(context), m_flow(new AadhaarFlow(context.api(), this)), m_api(context.api()),
      m_ui(std::make_unique<Ui::VerifyPage>())
{
    Look::set(this, "page");
    m_ui->setupUi(this);
    // The steps scroll inside the card when the window is too short for them (the kiosk's large type at 1280×720,
    // issue 27); the card's title and general error stay in view.
    const int stepsAt = m_ui->cardLayout->indexOf(m_ui->steps);
    m_ui->cardLayout->insertWidget(stepsAt, makeVerticalScroll(m_ui->steps, m_ui->card), 1); // takes the steps' place
    Look::set(m_ui->sandboxPanel, "card"); // m_ui->card has its look in the form
    for (QLabel *hint : {m_ui->maskedCaption, m_ui->sandboxHint, m_ui->smsState})
        Look::set(hint, "hint");
    for (QLabel *fieldError : {m_ui->numberError, m_ui->captchaError, m_ui->otpError})
        fieldError->setObjectName(QStringLiteral("fieldError")); // the test handle of FormErrors (its look: addField)
    m_errors = std::make_unique<FormErrors>(m_ui->generalError);
    m_errors->addField(QStringLiteral("aadhaar_number"), m_ui->numberError);
    m_errors->addField(QStringLiteral("captcha_value"), m_ui->captchaError);
    m_errors->addField(QStringLiteral("otp_value"), m_ui->otpError);

    m_consent = m_ui->consent->checkBox();
    m_consent->setObjectName(QStringLiteral("consentCheck"));
    Look::set(m_consent, "consentCheck");
    Look::set(m_ui->consent->label(), "consentLabel");
    m_consent->installEventFilter(this);
    // Room for pasted separators; the formatter keeps 12 digits.
    m_ui->aadhaarInput->setMaxLength(AadhaarFlow::kAadhaarDigits + 6);
    m_ui->captchaInput->setMaxLength(AadhaarFlow::kCodeDigits);
    m_ui->otpInput->setMaxLength(AadhaarFlow::kCodeDigits);
    setTabOrder(m_consent, m_ui->aadhaarInput); // the rest of the order is the form's

    if (m_context.api().isTestMode()) {
        connect(m_ui->smsRefresh, &QPushButton::clicked, this, &VerifyPage::refreshSms);
    } else {
        delete m_ui->sandboxPanel; // no sandbox behind a live key
        m_ui->sandboxPanel = m_ui->sandboxTitle = m_ui->sandboxHint = m_ui->smsState = nullptr;
        m_ui->smsOutbox = nullptr;
        m_ui->smsRefresh = nullptr;
        m_ui->pageLayout->addStretch(1);
    }

    connect(m_consent, &QCheckBox::toggled, this, &VerifyPage::onConsentToggled);
    connect(m_ui->aadhaarInput, &QLineEdit::textEdited, this, &VerifyPage::onNumberEdited);
    connect(m_ui->aadhaarInput, &QLineEdit::returnPressed, m_ui->captchaInput, qOverload<>(&QWidget::setFocus));
    const auto requestOtp = [this] {
        if (!m_flow->canRequestOtp())
            return;
        m_errors->clear();
        m_flow->requestOtp(AadhaarFlow::digitsOf(m_ui->aadhaarInput->text()), m_ui->captchaInput->text());
    };
    connect(m_ui->captchaInput, &QLineEdit::returnPressed, this, requestOtp);
    connect(m_ui->requestOtpButton, &QPushButton::clicked, this, requestOtp);
    connect(m_ui->captchaRefresh, &QPushButton::clicked, this, [this] {
        m_errors->clear();
        m_flow->restart();
        m_ui->captchaInput->setFocus();
    });
    const auto verifyOtp = [this] {
        if (m_flow->isBusy())
            return;
        m_errors->clear();
        m_flow->verifyOtp(m_ui->otpInput->text());
    };
    connect(m_ui->otpInput, &QLineEdit::returnPressed, this, verifyOtp);
    connect(m_ui->verifyOtpButton, &QPushButton::clicked, this, verifyOtp);
    connect(m_ui->resendOtpButton, &QPushButton::clicked, this, [this] {
        if (m_flow->isBusy())
            return;
        m_errors->clear();
        m_flow->resendOtp();
    });
    connect(m_ui->startOverButton, &QPushButton::clicked, this, [this] {
        m_errors->clear();
        m_flow->restart();
        m_ui->captchaInput->setFocus();
    });
    connect(m_ui->verifyAnotherButton, &QPushButton::clicked, this, &VerifyPage::reset);
    // Enter on a focused button presses it (QPushButton does that outside dialogs only when auto-default).
    for (QPushButton *button : {m_ui->captchaRefresh, m_ui->requestOtpButton, m_ui->verifyOtpButton,
                                m_ui->resendOtpButton, m_ui->startOverButton, m_ui->verifyAnotherButton})
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
        m_ui->captchaInput->clear();
        m_ui->captchaImage->setPixmap(QPixmap());
        m_ui->captchaImage->setText(tr("Loading captcha…"));
    });
    connect(m_flow, &AadhaarFlow::captchaLoaded, this, &VerifyPage::onCaptchaLoaded);
    connect(m_flow, &AadhaarFlow::captchaFailed, this, [this] {
        m_ui->captchaImage->setText(m_flow->transactionId() == 0
                                        ? tr("No captcha")
                                        : tr("The captcha could not be loaded. Press New captcha."));
    });
    connect(m_flow, &AadhaarFlow::verified, this, &VerifyPage::onVerified);

    reset();
}

VerifyPage::~VerifyPage() = default;

void VerifyPage::reset()
{
    m_flow->reset();
    m_lastDigits.clear();
    m_errors->clear();
    clearInputs();
    m_ui->captchaImage->setText(tr("The captcha appears here"));
    {
        const QSignalBlocker blocker(m_consent);
        m_consent->setChecked(false);
    }
    m_ui->numberArea->setEnabled(false);
    updateNumberCheck();
    m_ui->steps->setCurrentWidget(m_ui->requestStep);
    updateButtons();
    m_consent->setFocus();
}

void VerifyPage::clearInputs()
{
    m_ui->aadhaarInput->setText(QString()); // unlike clear(), also drops the undo history holding the number
    m_ui->captchaInput->clear();
    m_ui->otpInput->clear();
    m_ui->captchaImage->setPixmap(QPixmap());
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
                m_ui->aadhaarInput->setFocus();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void VerifyPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_ui->smsOutbox && m_ui->smsOutbox->count() == 0)
        refreshSms();
}

void VerifyPage::onConsentToggled(bool checked)
{
    m_errors->clear();
    if (!checked) {
        reset();
        return;
    }
    m_ui->numberArea->setEnabled(true);
    m_flow->giveConsent();
    m_ui->aadhaarInput->setFocus();
}

void VerifyPage::onNumberEdited(const QString &text)
{
    QString digits = AadhaarFlow::digitsOf(text);
    int cursorDigits = int(AadhaarFlow::digitsOf(text.left(m_ui->aadhaarInput->cursorPosition())).size());
    // A backspace that only removed a group blank removes the digit before it instead.
    if (digits == m_lastDigits && text.size() < groupDigits(m_lastDigits).size() && cursorDigits > 0) {
        digits.remove(cursorDigits - 1, 1);
        --cursorDigits;
    }
    const QString grouped = groupDigits(digits);
    if (grouped != text) {
        m_ui->aadhaarInput->setText(grouped);
        int position = 0;
        for (int seen = 0; position < grouped.size() && seen < cursorDigits; ++position) {
            if (grouped.at(position) != QLatin1Char(' '))
                ++seen;
        }
        m_ui->aadhaarInput->setCursorPosition(position);
    }
    m_lastDigits = AadhaarFlow::digitsOf(grouped);
    // An error said at the number ("Type all 12 digits") was about the number as it was: an edit takes it away,
    // so it never stands under the live check's "✔ Valid Aadhaar number" (issue 27).
    m_ui->numberError->hide();
    updateNumberCheck();
    m_flow->numberEdited(m_lastDigits); // the wait is per Aadhaar number: another customer's need not wait
}

void VerifyPage::updateNumberCheck()
{
    const QString digits = AadhaarFlow::digitsOf(m_ui->aadhaarInput->text());
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
    m_ui->aadhaarCheck->setText(text);
    setState(m_ui->aadhaarCheck, "state", state);
    setState(m_ui->aadhaarInput, "invalid", state == QLatin1String("bad"));
}

void VerifyPage::onCaptchaLoaded(const QByteArray &png)
{
    QPixmap image;
    if (!image.loadFromData(png)) {
        m_ui->captchaImage->setText(tr("The captcha could not be loaded. Press New captcha."));
        return;
    }
    m_ui->captchaImage->setPixmap(image.height() > 90 ? image.scaledToHeight(90, Qt::SmoothTransformation) : image);
}

void VerifyPage::onStepChanged(AadhaarFlow::Step step)
{
    switch (step) {
    case AadhaarFlow::Step::Consent:
    case AadhaarFlow::Step::Number:
        m_ui->otpInput->clear();
        m_ui->steps->setCurrentWidget(m_ui->requestStep);
        break;
    case AadhaarFlow::Step::Otp:
        m_ui->steps->setCurrentWidget(m_ui->otpStep);
        break;
    case AadhaarFlow::Step::Verified:
        m_ui->steps->setCurrentWidget(m_ui->successStep);
        break;
    }
    updateButtons();
}

void VerifyPage::onOtpSent()
{
    m_ui->otpSentMessage->setText(m_flow->otpMessage());
    m_ui->otpInput->clear();
    updateTries();
    m_ui->otpInput->setFocus();
    refreshSms();
}

void VerifyPage::onFailed(const AadhaarFlow::Problem &problem)
{
    using Failure = AadhaarFlow::Failure;
    if (problem.failure == Failure::Throttled) {
        showThrottle();
        if (m_flow->isThrottleOnResend())
            m_ui->otpInput->setFocus();
        return;
    }
    m_errors->showAt(problem.field, describe(problem));
    switch (problem.failure) {
    case Failure::NumberIncomplete:
    case Failure::NumberInvalid:
        m_ui->aadhaarInput->setFocus();
        break;
    case Failure::CaptchaWrong:
        m_ui->captchaInput->clear();
        [[fallthrough]];
    case Failure::CaptchaIncomplete:
        m_ui->captchaInput->setFocus();
        break;
    case Failure::OtpWrong:
        m_ui->otpInput->clear();
        [[fallthrough]];
    case Failure::OtpIncomplete:
        m_ui->otpInput->setFocus();
        break;
    case Failure::OtpExpired:
        m_ui->resendOtpButton->setFocus();
        break;
    case Failure::CaptchaClosed:
    case Failure::CaptchaExpired:
    case Failure::OtpClosed:
    case Failure::FlowEnded:
        m_ui->captchaInput->setFocus();
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
    m_ui->maskedNumber->setText(masked);
    m_ui->successMessage->setText(tr("Identity confirmed by Aadhaar OTP at %1. The full number has been cleared "
                                     "from this screen.")
                                      .arg(IstTime::timeOfDay(QDateTime::currentDateTimeUtc())));
    m_ui->verifyAnotherButton->setFocus();
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
            m_ui->otpCountdown->setText(tr("OTP valid for %1").arg(minutesSeconds(otpLeft)));
            setState(m_ui->otpCountdown, "state", QString());
        } else {
            m_ui->otpCountdown->setText(tr("OTP expired — press Resend OTP"));
            setState(m_ui->otpCountdown, "state", QStringLiteral("bad"));
        }
    }
    updateButtons();
}

void VerifyPage::updateTries()
{
    m_ui->otpTries->setText(triesLeftText(m_flow->triesLeft()));
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
    m_ui->requestOtpButton->setEnabled(m_flow->step() != AadhaarFlow::Step::Number || m_flow->canRequestOtp());
    m_ui->captchaRefresh->setEnabled(!busy);
    m_ui->verifyOtpButton->setEnabled(!busy);
    m_ui->startOverButton->setEnabled(!busy);
    const qint64 resendLeft = m_flow->resendSecondsLeft();
    if (resendLeft > 0) {
        m_ui->resendOtpButton->setText(tr("Resend in %1").arg(minutesSeconds(resendLeft)));
        m_ui->resendOtpButton->setEnabled(false);
    } else {
        m_ui->resendOtpButton->setText(tr("Resend OTP"));
        m_ui->resendOtpButton->setEnabled(!busy);
    }
}

void VerifyPage::refreshSms()
{
    if (!m_ui->smsOutbox)
        return;
    m_api.sandboxSms(kSmsShown).then(this, [this](const Answer<Collection<SandboxSms>> &answer) {
        if (!answer.ok()) {
            m_ui->smsState->setText(answer.error->httpStatus() == 404
                                        ? tr("The SMS outbox can be read with an admin test key only.")
                                        : tr("Could not read the SMS outbox: %1").arg(answer.error->description()));
            return;
        }
        m_ui->smsOutbox->clear();
        for (const SandboxSms &sms : answer.value->items)
            m_ui->smsOutbox->addItem(tr("%1 · to %2\n%3").arg(sms.datetime, sms.mobile, sms.message));
        m_ui->smsState->setText(answer.value->items.isEmpty()
                                    ? tr("No messages yet.")
                                    : tr("Updated %1").arg(IstTime::timeOfDay(QDateTime::currentDateTimeUtc(), true)));
    });
}
