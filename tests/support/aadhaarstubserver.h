#pragma once

#include <QBuffer>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>

/// A stand-in Aadhaar server on 127.0.0.1, port 0, for clients that must not depend on the real server's English
/// (issue 14): it runs initiate → request-otp → verify-otp with any captcha answer, and answers every OTP with
/// `otp_mismatch`, whose description is `prose` and whose `attempts_left` is `attemptsLeft`. Lives in the test's
/// thread; answers while the test spins an event loop.
class AadhaarStubServer
{
public:
    QString prose = QStringLiteral("El OTP no coincide; quedan 7 attempts left");
    int attemptsLeft = 1;

    AadhaarStubServer()
    {
        m_server.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handle(request.url().path(), responder);
        });
        m_port = m_server.listen(QHostAddress::LocalHost, 0);
    }

    QUrl baseUrl() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port)); }

private:
    static void data(QHttpServerResponder &responder, const QJsonObject &data)
    {
        responder.write(QJsonDocument(QJsonObject{{QStringLiteral("data"), data}}));
    }

    static QJsonObject step(const char *status)
    {
        return QJsonObject{{QStringLiteral("entity"), QStringLiteral("aadhaar_authentication")},
                           {QStringLiteral("transaction_id"), 41},
                           {QStringLiteral("status"), QLatin1String(status)},
                           {QStringLiteral("msg"), QStringLiteral("OTP sent to XXXXXX1234")}};
    }

    void handle(const QString &path, QHttpServerResponder &responder)
    {
        const QString flow = QStringLiteral("/api/v1/uidai/aadhaar-authentication/");
        if (path == flow + QStringLiteral("initiate-transaction")) {
            QJsonObject initiated = step("CAPTCHA_GENERATED");
            initiated.insert(QStringLiteral("captcha"), QStringLiteral("/captcha.png"));
            return data(responder, initiated);
        }
        if (path == QLatin1String("/captcha.png")) {
            QImage image(120, 40, QImage::Format_RGB32);
            image.fill(Qt::white);
            QBuffer png;
            png.open(QIODevice::WriteOnly);
            image.save(&png, "PNG");
            return responder.write(png.data(), "image/png");
        }
        if (path == flow + QStringLiteral("request-otp"))
            return data(responder, step("OTP_GENERATED"));
        if (path == flow + QStringLiteral("verify-otp")) {
            const QJsonObject error{{QStringLiteral("code"), QStringLiteral("BAD_REQUEST_ERROR")},
                                    {QStringLiteral("description"), prose},
                                    {QStringLiteral("field"), QStringLiteral("otp_value")},
                                    {QStringLiteral("reason"), QStringLiteral("otp_mismatch")},
                                    {QStringLiteral("attempts_left"), attemptsLeft}};
            return responder.write(QJsonDocument(QJsonObject{{QStringLiteral("error"), error}}),
                                   QHttpServerResponder::StatusCode::BadRequest);
        }
        responder.write(QHttpServerResponder::StatusCode::NotFound);
    }

    QHttpServer m_server;
    quint16 m_port = 0;
};
