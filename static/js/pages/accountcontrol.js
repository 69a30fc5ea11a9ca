// The account page's control of the account by its owner: change the password, set the
// e-mail address, download all its data, close it (behind its typed username), and, logged
// out, "forgot password" and the mailed links (/account?reset=… sets a new password,
// /account?verify=… verifies an address). Every call is the public REST API.

import { request } from "../site/api.js";
import { getLang, withLanguages } from "../i18n/i18n.js";

const $ = (id) => document.getElementById(id);

export const CONTROL_WORDS = withLanguages("accountControl", {
  en: {
    forgot: "Forgot your password?",
    forgotWhy: "If your account has a verified e-mail address, a link to choose a new password is mailed to it.",
    email: "E-mail address",
    sendLink: "Send the link",
    linkSent: "If an account has this verified address, a link is on its way (valid for an hour).",
    resetTitle: "Choose a new password",
    newPassword: "New password",
    setPassword: "Set the password",
    passwordSet: "Your new password is set.",
    changePassword: "Change the password",
    changeWhy: "Every other browser logged in to this account is logged out; API tokens keep working (revoke them above if they may have leaked).",
    currentPassword: "Current password",
    passwordChanged: "Password changed. Other browsers are logged out.",
    emailTitle: "E-mail address",
    saveEmail: "Save the address",
    noEmail: "No address: a forgotten password cannot be reset.",
    emailUnverified: "{email}: not verified yet. Open the link mailed to it.",
    emailVerified: "{email}: verified. A forgotten password can be reset through it.",
    noMail: "This server sends no mail: no address can be set.",
    verified: "Your e-mail address is verified.",
    dataTitle: "Your data",
    dataWhy: "Everything this account has here — account, games, chat lines, ratings, tokens (not their secrets) — as one JSON file.",
    download: "Download my data",
    closeTitle: "Close the account",
    closeWhy: "This cannot be undone. Your games stay, under your name marked closed; your tokens stop working, games in progress end, and nobody can take your username again.",
    closeConfirm: "Type your username to confirm",
    closeAccount: "Close my account",
    closed: "The account is closed.",
    "account.password_wrong": "The password is wrong.",
    "account.closed": "This account is closed.",
    "account.email_invalid": "This is not an e-mail address.",
    "account.link_invalid": "This link is not valid any more (used, expired or mistyped).",
    "mail.unavailable": "This server sends no mail.",
  },
  fr: {
    forgot: "Mot de passe oublié ?",
    forgotWhy: "Si votre compte a une adresse e-mail vérifiée, un lien pour choisir un nouveau mot de passe y est envoyé.",
    email: "Adresse e-mail",
    sendLink: "Envoyer le lien",
    linkSent: "Si un compte a cette adresse vérifiée, un lien est en route (valable une heure).",
    resetTitle: "Choisir un nouveau mot de passe",
    newPassword: "Nouveau mot de passe",
    setPassword: "Définir le mot de passe",
    passwordSet: "Votre nouveau mot de passe est défini.",
    changePassword: "Changer le mot de passe",
    changeWhy: "Tout autre navigateur connecté à ce compte est déconnecté ; les jetons d'API restent valables (révoquez-les ci-dessus s'ils ont pu fuiter).",
    currentPassword: "Mot de passe actuel",
    passwordChanged: "Mot de passe changé. Les autres navigateurs sont déconnectés.",
    emailTitle: "Adresse e-mail",
    saveEmail: "Enregistrer l'adresse",
    noEmail: "Aucune adresse : un mot de passe oublié ne peut pas être réinitialisé.",
    emailUnverified: "{email} : pas encore vérifiée. Ouvrez le lien qui y a été envoyé.",
    emailVerified: "{email} : vérifiée. Un mot de passe oublié peut être réinitialisé par elle.",
    noMail: "Ce serveur n'envoie pas d'e-mail : aucune adresse ne peut être enregistrée.",
    verified: "Votre adresse e-mail est vérifiée.",
    dataTitle: "Vos données",
    dataWhy: "Tout ce que ce compte a ici — compte, parties, messages, classements, jetons (sans leur secret) — dans un fichier JSON.",
    download: "Télécharger mes données",
    closeTitle: "Fermer le compte",
    closeWhy: "C'est irréversible. Vos parties restent, sous votre nom marqué fermé ; vos jetons cessent de fonctionner, les parties en cours se terminent, et personne ne pourra reprendre votre nom.",
    closeConfirm: "Tapez votre nom d'utilisateur pour confirmer",
    closeAccount: "Fermer mon compte",
    closed: "Le compte est fermé.",
    "account.password_wrong": "Le mot de passe est incorrect.",
    "account.closed": "Ce compte est fermé.",
    "account.email_invalid": "Ce n'est pas une adresse e-mail.",
    "account.link_invalid": "Ce lien n'est plus valable (utilisé, expiré ou mal copié).",
    "mail.unavailable": "Ce serveur n'envoie pas d'e-mail.",
  },
});

function w(key, values = {}) {
  const text = CONTROL_WORDS[getLang()][key] ?? CONTROL_WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

let email = null; // GET /api/account/email (logged in)

// The address part, in the page's language.
export function showEmail() {
  if (email === null) return;
  let state;
  if (!email.mail) state = w("noMail");
  else if (!email.email) state = w("noEmail");
  else state = w(email.verified ? "emailVerified" : "emailUnverified", { email: email.email });
  $("email-state").textContent = state;
  $("email-form").hidden = !email.mail;
}

// ``page``: the account page's { attempt, say, load, mismatch, account } (account: a
// function giving GET /api/account or null).
export function setupControl(page) {
  const { attempt, say, load } = page;

  page.onLoaded = async (account) => {
    email = account ? await request("/api/account/email") : null;
    showEmail();
    $("close-account").disabled = true;
    $("close-form").reset();
  };

  $("password-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    if (form.elements.password.value !== form.elements.password2.value) {
      say(page.mismatch());
      return;
    }
    attempt(async () => {
      const body = {
        currentPassword: form.elements.current.value,
        newPassword: form.elements.password.value,
      };
      await request("/api/account/password", { method: "POST", body });
      form.reset();
      say(w("passwordChanged"));
    });
  });

  $("email-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    attempt(async () => {
      const body = { email: form.elements.email.value.trim(), password: form.elements.password.value };
      email = await request("/api/account/email", { method: "POST", body });
      form.reset();
      showEmail();
    });
  });

  $("close-form").addEventListener("input", (event) => {
    const account = page.account();
    const typed = event.currentTarget.elements.confirm.value.trim();
    $("close-account").disabled = !account || typed !== account.username;
  });

  $("close-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    const account = page.account();
    if (!account || form.elements.confirm.value.trim() !== account.username) return;
    attempt(async () => {
      const body = { password: form.elements.password.value };
      await request("/api/account/close", { method: "POST", body });
      form.reset();
      await load();
      say(w("closed"));
    });
  });

  $("forgot-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    attempt(async () => {
      const body = { email: form.elements.email.value.trim() };
      await request("/api/account/password/forgot", { method: "POST", body });
      form.reset();
      say(w("linkSent"));
    });
  });

  // The mailed links: their token is read once, then taken out of the address bar (and so
  // out of the history and of what a Referer could carry).
  const params = new URLSearchParams(location.search);
  const reset = params.get("reset");
  const verify = params.get("verify");
  if (reset || verify) history.replaceState(null, "", location.pathname);
  if (reset) $("reset-part").hidden = false;
  $("reset-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    if (form.elements.password.value !== form.elements.password2.value) {
      say(page.mismatch());
      return;
    }
    attempt(async () => {
      const body = { token: reset, password: form.elements.password.value };
      await request("/api/account/password/reset", { method: "POST", body });
      form.reset();
      $("reset-part").hidden = true;
      await load();
      say(w("passwordSet"));
    });
  });
  if (verify) {
    attempt(async () => {
      await request("/api/account/email/verify", { method: "POST", body: { token: verify } });
      await load();
      say(w("verified"));
    });
  }
}

// This part's words: [data-t] elements whose key is one of them.
export function controlWord(key) {
  return key in CONTROL_WORDS.en ? w(key) : null;
}
