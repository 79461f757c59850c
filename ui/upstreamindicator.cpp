#include "upstreamindicator.h"

#include "apiclient.h"

#include <QLabel>

UpstreamIndicator::UpstreamIndicator(ApiClient &api, QLabel *label, QObject *parent)
    : QObject(parent), m_api(api), m_label(label)
{
    m_label->setObjectName(QStringLiteral("upstreamState"));
    m_label->hide();
}

void UpstreamIndicator::refresh()
{
    if (m_api.isTestMode() || m_call)
        return;
    m_call = m_api.get(QStringLiteral("/api/v1/upstream"));
    connect(m_call, &ApiCall::finished, this, [this](const ApiResult &result) {
        m_call = nullptr;
        if (result.ok())
            show(UpstreamStatus::fromJson(result.data));
        else if (result.httpStatus == 404) // a server without upstream support
            show(UpstreamStatus{});
        // Other failures (server offline) keep the last state: the server line already says so.
    });
}

void UpstreamIndicator::show(const UpstreamStatus &status)
{
    m_status = status;
    const QString text = status.statusBarText();
    m_label->setText(text);
    m_label->setVisible(!text.isEmpty());
    m_label->setStyleSheet(
        status.state == QLatin1String("unreachable") ? QStringLiteral("color: #b54708; font-weight: 600;") : QString());
}
