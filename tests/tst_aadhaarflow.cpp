#include "aadhaarstubserver.h"
#include "apiclient.h"
#include "terminal/aadhaarflow.h"
#include "testserver.h"
#include "validators.h"

#include <QGuiApplication>
#include <QSignalSpy>
#include <QtTest>

#include <memory>

Q_DECLARE_METATYPE(AadhaarFlow::Problem)

namespace {

/// A valid Aadhaar number: `elevenDigits` plus its Verhoeff check digit.
QString aadhaar(const QString &elevenDigits)
{
    return elevenDigits + QString::number(Validators::verhoeffCheckDigit(elevenDigits));
}

/// `code` with its last digit changed.
QString wrong(const QString &code)
{
    QString changed = code;
    changed[code.size() - 1] = QChar(u'0' + (code.back().unicode() - u'0' + 1) % 10);
    return changed;
}

/// The flow against a real server over HTTP (port 0) with a test admin key; no widgets.
struct Fixture
{
    TestServer server;
    CreatedKey key;
    std::unique_ptr<ApiClient> api;
    std::unique_ptr<AadhaarFlow> flow;
    QSignalSpy failures;
    QSignalSpy captchas;

    Fixture()
        : key(server.createKeyPair(Mode::Test, Scope::Admin)),
          api(std::make_unique<ApiClient>(server.baseUrl(), key.keyId, key.secret)),
          flow(std::make_unique<AadhaarFlow>(*api)), failures(flow.get(), &AadhaarFlow::failed),
          captchas(flow.get(), &AadhaarFlow::captchaLoaded)
    {}

    /// captcha_value or otp_value of the flow's transaction, from the sandbox endpoint.
    QString secret(const char *name)
    {
        return server.http()
            .get(server.url(QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(flow->transactionId())),
                 HttpClient::basic(key.keyId, key.secret))
            .data()
            .value(QLatin1String(name))
            .toString();
    }

    AadhaarFlow::Problem lastProblem() const { return failures.last().at(0).value<AadhaarFlow::Problem>(); }
};

} // namespace

class TestAadhaarFlow final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<AadhaarFlow::Problem>(); }
    void consentOpensATransactionWithItsCaptcha();
    void wholeFlowWithWrongAnswersOnTheWay();
    void inputIsCheckedBeforeAnythingIsSent();
    void threeWrongOtpsRestartWithANewCaptcha();
    void triesLeftAreTheServersDataNotItsProse();
    void resetForgetsTheTransaction();
};

void TestAadhaarFlow::consentOpensATransactionWithItsCaptcha()
{
    Fixture f;
    QCOMPARE(f.flow->step(), AadhaarFlow::Step::Consent);
    QCOMPARE(f.flow->transactionId(), 0);
    f.flow->giveConsent();
    QCOMPARE(f.flow->step(), AadhaarFlow::Step::Number);
    QTRY_COMPARE_WITH_TIMEOUT(f.captchas.count(), 1, 10000);
    QVERIFY(f.flow->transactionId() > 0);
    QVERIFY(f.captchas.at(0).at(0).toByteArray().startsWith("\x89PNG"));
    QVERIFY(f.failures.isEmpty());
}

void TestAadhaarFlow::wholeFlowWithWrongAnswersOnTheWay()
{
    Fixture f;
    QSignalSpy verified(f.flow.get(), &AadhaarFlow::verified);
    const QString number = aadhaar(QStringLiteral("98765432101"));
    f.flow->giveConsent();
    QTRY_COMPARE_WITH_TIMEOUT(f.captchas.count(), 1, 10000);
    const QString captcha = f.secret("captcha_value");

    f.flow->requestOtp(number, wrong(captcha));
    QTRY_COMPARE_WITH_TIMEOUT(f.failures.count(), 1, 10000);
    QCOMPARE(f.lastProblem().failure, AadhaarFlow::Failure::CaptchaWrong);
    QCOMPARE(f.lastProblem().field, QStringLiteral("captcha_value"));
    QCOMPARE(f.lastProblem().attemptsLeft, 2);
    QCOMPARE(f.flow->step(), AadhaarFlow::Step::Number);

    f.flow->requestOtp(number, captcha);
    QTRY_COMPARE_WITH_TIMEOUT(f.flow->step(), AadhaarFlow::Step::Otp, 10000);
    QCOMPARE(f.flow->triesLeft(), 3);
    QVERIFY2(f.flow->otpMessage().contains(QLatin1String("XXXXXX")), qPrintable(f.flow->otpMessage()));
    QVERIFY(f.flow->otpSecondsLeft() > 590 && f.flow->otpSecondsLeft() <= 600);

    const QString otp = f.secret("otp_value");
    f.flow->verifyOtp(wrong(otp));
    QTRY_COMPARE_WITH_TIMEOUT(f.failures.count(), 2, 10000);
    QCOMPARE(f.lastProblem().failure, AadhaarFlow::Failure::OtpWrong);
    QCOMPARE(f.lastProblem().attemptsLeft, 2);
    QCOMPARE(f.flow->triesLeft(), 2);

    f.flow->verifyOtp(otp);
    QTRY_COMPARE_WITH_TIMEOUT(verified.count(), 1, 10000);
    QCOMPARE(verified.at(0).at(0).toString(), QStringLiteral("XXXX XXXX ") + number.right(4));
    QCOMPARE(f.flow->step(), AadhaarFlow::Step::Verified);
    QCOMPARE(f.flow->transactionId(), 0);
}

void TestAadhaarFlow::inputIsCheckedBeforeAnythingIsSent()
{
    Fixture f;
    f.flow->giveConsent();
    QTRY_COMPARE_WITH_TIMEOUT(f.captchas.count(), 1, 10000);
    const auto failureOf = [&f](const QString &number, const QString &captcha) {
        const qsizetype before = f.failures.count();
        f.flow->requestOtp(number, captcha);
        return f.failures.count() == before + 1 ? f.lastProblem().failure : AadhaarFlow::Failure::Other;
    };
    QCOMPARE(failureOf(QStringLiteral("98765"), QStringLiteral("123456")), AadhaarFlow::Failure::NumberIncomplete);
    QCOMPARE(failureOf(wrong(aadhaar(QStringLiteral("98765432101"))), QStringLiteral("123456")),
             AadhaarFlow::Failure::NumberInvalid);
    QCOMPARE(failureOf(aadhaar(QStringLiteral("98765432101")), QStringLiteral("123")),
             AadhaarFlow::Failure::CaptchaIncomplete);
    QVERIFY(!f.flow->isBusy());
    QCOMPARE(f.secret("otp_value"), QString()); // nothing reached the server
    QCOMPARE(f.flow->step(), AadhaarFlow::Step::Number);
}

void TestAadhaarFlow::threeWrongOtpsRestartWithANewCaptcha()
{
    Fixture f;
    f.flow->giveConsent();
    QTRY_COMPARE_WITH_TIMEOUT(f.captchas.count(), 1, 10000);
    f.flow->requestOtp(aadhaar(QStringLiteral("87654321098")), f.secret("captcha_value"));
    QTRY_COMPARE_WITH_TIMEOUT(f.flow->step(), AadhaarFlow::Step::Otp, 10000);
    const qint64 first = f.flow->transactionId();
    const QString otp = f.secret("otp_value");
    for (int i = 1; i <= 3; ++i) {
        f.flow->verifyOtp(wrong(otp));
        QTRY_COMPARE_WITH_TIMEOUT(f.failures.count(), i, 10000);
    }
    QCOMPARE(f.lastProblem().failure, AadhaarFlow::Failure::OtpClosed);
    QCOMPARE(f.flow->step(), AadhaarFlow::Step::Number);
    QTRY_COMPARE_WITH_TIMEOUT(f.captchas.count(), 2, 10000);
    QVERIFY(f.flow->transactionId() > first);
}

// Issue 14: the count comes from `attempts_left`; a server whose description says something else entirely (another
// language, another number) does not change it.
void TestAadhaarFlow::triesLeftAreTheServersDataNotItsProse()
{
    AadhaarStubServer stub;
    stub.attemptsLeft = 1;
    ApiClient api(stub.baseUrl(), QStringLiteral("test_stub"), QStringLiteral("secret"));
    AadhaarFlow flow(api);
    QSignalSpy failures(&flow, &AadhaarFlow::failed);
    QSignalSpy captchas(&flow, &AadhaarFlow::captchaLoaded);
    flow.giveConsent();
    QTRY_COMPARE_WITH_TIMEOUT(captchas.count(), 1, 10000);
    flow.requestOtp(aadhaar(QStringLiteral("98765432101")), QStringLiteral("123456"));
    QTRY_COMPARE_WITH_TIMEOUT(flow.step(), AadhaarFlow::Step::Otp, 10000);
    flow.verifyOtp(QStringLiteral("000000"));
    QTRY_COMPARE_WITH_TIMEOUT(failures.count(), 1, 10000);
    const auto problem = failures.last().at(0).value<AadhaarFlow::Problem>();
    QCOMPARE(problem.failure, AadhaarFlow::Failure::OtpWrong);
    QCOMPARE(problem.attemptsLeft, 1);
    QCOMPARE(flow.triesLeft(), 1);
}

void TestAadhaarFlow::resetForgetsTheTransaction()
{
    Fixture f;
    f.flow->giveConsent();
    QTRY_COMPARE_WITH_TIMEOUT(f.captchas.count(), 1, 10000);
    f.flow->reset();
    QCOMPARE(f.flow->step(), AadhaarFlow::Step::Consent);
    QCOMPARE(f.flow->transactionId(), 0);
    // Requests are refused until consent is given again.
    f.flow->requestOtp(aadhaar(QStringLiteral("98765432101")), QStringLiteral("123456"));
    QVERIFY(f.failures.isEmpty());
    QVERIFY(!f.flow->isBusy());
}

// A QGuiApplication, not a QApplication: the server's captcha renderer needs fonts, the flow needs no widgets.
int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    TestAadhaarFlow test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_aadhaarflow.moc"
