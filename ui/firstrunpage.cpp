#include "firstrunpage.h"

#include "apiclient.h"
#include "operatorcatalog.h"
#include "serverapi.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

FirstRunPage::FirstRunPage(const QUrl &serverUrl, QByteArray setupToken, QWidget *parent)
    : QWidget(parent), m_api(std::make_unique<ApiClient>(serverUrl, QString(), QString())),
      m_setupToken(std::move(setupToken))
{
    Look::set(this, "page");
    auto *title = new QLabel(tr("Welcome to RechargeDesk"), this);
    Look::set(title, "pageTitle");
    auto *intro = new QLabel(tr("Set up your shop. You will sign in with the admin name and PIN below; "
                                "the terminal starts in TEST MODE with sandbox money, so nothing real is sold "
                                "until a live key is configured."),
                             this);
    intro->setWordWrap(true);
    Look::set(intro, "hint");

    m_shopName = new QLineEdit(this);
    m_shopName->setPlaceholderText(tr("e.g. Sharma Mobile Point"));
    m_shopAddress = new QLineEdit(this);
    m_shopAddress->setPlaceholderText(tr("Printed on receipts"));
    // The shop's home circle: the Plans screen opens on it, and a sale's circle starts there (issue 27).
    m_circle = new QComboBox(this);
    m_circle->setObjectName(QStringLiteral("homeCircle"));
    const OperatorCatalog catalog = OperatorCatalog::builtIn();
    for (const CircleInfo &circle : catalog.circles())
        m_circle->addItem(circle.name, circle.code);
    m_circle->setPlaceholderText(tr("Choose the shop's circle"));
    m_circle->setCurrentIndex(-1);
    m_circle->setMinimumHeight(42);
    m_adminName = new QLineEdit(this);
    m_adminName->setPlaceholderText(tr("Your name"));
    const auto *pinValidator = new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,8}")), this);
    m_pin = new QLineEdit(this);
    m_pin->setEchoMode(QLineEdit::Password);
    m_pin->setValidator(pinValidator);
    m_pin->setPlaceholderText(tr("6 to 8 digits"));
    m_pinAgain = new QLineEdit(this);
    m_pinAgain->setEchoMode(QLineEdit::Password);
    m_pinAgain->setValidator(pinValidator);

    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("generalError"));
    Look::set(general, "generalError");
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);

    auto *form = new QFormLayout;
    form->setVerticalSpacing(10);
    form->setHorizontalSpacing(16);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    const auto addRow = [this, form](const QString &label, QWidget *edit, const QString &field) {
        form->addRow(label, edit);
        QLabel *error = FormErrors::makeLabel(this);
        form->addRow(QString(), error);
        m_errors->addField(field, error);
    };
    addRow(tr("Shop name"), m_shopName, QStringLiteral("shop_name"));
    addRow(tr("Shop address"), m_shopAddress, QStringLiteral("shop_address"));
    addRow(tr("Home circle"), m_circle, QStringLiteral("home_circle"));
    addRow(tr("Admin name"), m_adminName, QStringLiteral("admin_name"));
    addRow(tr("Admin PIN"), m_pin, QStringLiteral("admin_pin"));
    addRow(tr("PIN again"), m_pinAgain, QStringLiteral("admin_pin_again"));

    m_create = new QPushButton(tr("Create shop"), this);
    m_create->setObjectName(QStringLiteral("primary"));
    Look::set(m_create, "action");
    m_create->setDefault(true);
    connect(m_create, &QPushButton::clicked, this, &FirstRunPage::onCreateClicked);
    for (QLineEdit *edit : {m_shopName, m_shopAddress, m_adminName, m_pin, m_pinAgain}) {
        edit->setMinimumHeight(42); // the style sheet's min-height alone does not reach QFormLayout's row heights
        connect(edit, &QLineEdit::returnPressed, this, &FirstRunPage::onCreateClicked);
    }

    auto *card = new QWidget(this);
    Look::set(card, "card");
    card->setFixedWidth(600);
    auto *cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(28, 24, 28, 28);
    cardLayout->setSpacing(14);
    cardLayout->addWidget(title);
    cardLayout->addWidget(intro);
    cardLayout->addWidget(general);
    cardLayout->addLayout(form);
    cardLayout->addWidget(m_create);
    // Centred by stretches, not by alignment: a vertical box asks an aligned item for its height at
    // the page's whole width, so the card's wrapped labels would get one line's height and be cut.
    auto *row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(card);
    row->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addStretch();
    layout->addLayout(row);
    layout->addStretch();
    setTabOrder(m_shopName, m_shopAddress);
    setTabOrder(m_shopAddress, m_circle);
    setTabOrder(m_circle, m_adminName);
    setTabOrder(m_adminName, m_pin);
    setTabOrder(m_pin, m_pinAgain);
    setTabOrder(m_pinAgain, m_create);
}

FirstRunPage::~FirstRunPage() = default;

void FirstRunPage::showError(const QString &field, const QString &message)
{
    m_errors->showAt(field, message);
    m_create->setEnabled(true);
}

void FirstRunPage::onCreateClicked()
{
    m_errors->clear();
    if (m_shopName->text().trimmed().isEmpty())
        m_errors->showAt(QStringLiteral("shop_name"), tr("Enter the shop's name."));
    if (m_circle->currentIndex() < 0)
        m_errors->showAt(QStringLiteral("home_circle"),
                         tr("Choose the shop's circle: the Plans screen opens on it. Type its first letters."));
    if (m_adminName->text().trimmed().isEmpty())
        m_errors->showAt(QStringLiteral("admin_name"), tr("Enter the admin's name."));
    if (m_pin->text().size() < 6)
        m_errors->showAt(QStringLiteral("admin_pin"), tr("The admin PIN needs 6 to 8 digits."));
    else if (m_pin->text() != m_pinAgain->text())
        m_errors->showAt(QStringLiteral("admin_pin_again"), tr("The two PINs differ."));
    if (m_errors->hasErrors())
        return;
    m_create->setEnabled(false);
    createShop();
}

void FirstRunPage::createShop()
{
    const ShopSetupRequest request{m_shopName->text().trimmed(), m_shopAddress->text().trimmed(),
                                   m_adminName->text().trimmed(), m_pin->text()};
    ServerApi(*m_api)
        .setUp(request, m_setupToken)
        .then(this, [this, adminName = request.adminName,
                     circle = m_circle->currentData().toString()](const Answer<ShopSetupResult> &answer) {
            if (!answer.ok()) {
                showError(answer.error->field(), answer.error->description());
                return;
            }
            emit shopCreated(answer.value->keyId, answer.value->keySecret, adminName, circle);
        });
}
