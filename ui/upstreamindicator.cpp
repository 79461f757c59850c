#include "upstreamindicator.h"

#include "apiclient.h"
#include "upstreamapi.h"
#include "widgets/look.h"

#include <QLabel>

UpstreamIndicator::UpstreamIndicator(ApiClient &api, QLabel *label, QLabel *attentionLabel, QObject *parent)
    : QObject(parent), m_api(api), m_label(label), m_attention(attentionLabel)
{
    m_label->setObjectName(QStringLiteral("upstreamState"));
    m_label->hide();
    m_attention->setObjectName(QStringLiteral("attentionCount"));
    Look::set(m_attention, "warning");
    m_attention->hide();
}

void UpstreamIndicator::refresh()
{
    if (m_api.isTestMode() || m_call)
        return;
    m_call = UpstreamApi(m_api).get().then(this, [this](const Answer<UpstreamInfo> &answer) {
        m_call = nullptr;
        if (answer.ok())
            show(UpstreamStatus::from(*answer.value));
        else if (answer.httpStatus == 404) // a server without upstream support
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
    Look::set(m_label, status.state == QLatin1String("unreachable") ? "warning" : "");
    const QString attention = status.attentionText();
    m_attention->setText(attention);
    m_attention->setToolTip(attention.isEmpty() ? QString() : status.attentionToolTip());
    m_attention->setVisible(!attention.isEmpty());
}
