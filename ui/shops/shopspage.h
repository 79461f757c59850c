#pragma once

#include <QWidget>

class FundRequestsPane;
class QTabWidget;
class ShopListPane;
class TerminalContext;

/// Back office → Shops (issue 30), for the admins of the distributor (the server's own account): two sub-tabs,
/// "Shops" (Alt+O; ShopListPane: the list, the selected shop and what to do with it, Add shop…) and "Fund requests"
/// (Alt+F; FundRequestsPane). Loads when shown; F5 reloads the sub-tab on screen (BackOfficeView).
class ShopsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShopsPage)

public:
    explicit ShopsPage(TerminalContext &context, QWidget *parent = nullptr);

    ShopListPane *shops() const { return m_shops; }
    FundRequestsPane *fundRequests() const { return m_fundRequests; }
    QTabWidget *tabs() const { return m_tabs; }
    /// Reloads the sub-tab on screen.
    void refresh();

signals:
    /// Money moved into a shop's wallet here (a top-up, an approved fund request).
    void shopsChanged();

protected:
    void showEvent(QShowEvent *event) override;

private:
    ShopListPane *m_shops;
    FundRequestsPane *m_fundRequests;
    QTabWidget *m_tabs;
};
