/*
 * What a person sends when invoking (command options, submitted form values) and what a bot
 * shows back (a form), with no I/O. Each returns a clean copy or NULL with the path.
 */
#ifndef PRACA_DOMAIN_INTERACTION_RULES_H
#define PRACA_DOMAIN_INTERACTION_RULES_H
#include <jansson.h>

#include "domain/json_rules.h"

#define INTERACTION_TEXT_MAX      6000 /* a string option's value */
#define MODAL_TITLE_MAX           45
#define MODAL_INPUTS_MAX          5
#define MODAL_INPUT_LABEL_MAX     45
#define MODAL_INPUT_VALUE_MAX     4000
#define INTERACTION_CUSTOM_ID_MAX 100
#define INTERACTION_VALUES_MAX    25
#define AUTOCOMPLETE_CHOICES_MAX  25

/* The options given for a command whose definition has `defined` options: known names once
 * each, values of the option's type (and among its choices), every required one present.
 * Returns [{name, type, value}] in the order given. */
json_t *rule_interaction_clean_options(json_t *defined, json_t *given, struct rule_error *err);

/* A form (modal response data): {customId, title, components} where components are 1–5 action
 * rows each holding one text input {type: 4, customId, label, style 1|2, required?,
 * minLength?, maxLength?, placeholder?, value?} or one string select {type: 3, customId, label?,
 * options, placeholder?, minValues?, maxValues?, required?}. */
json_t *rule_interaction_clean_modal(json_t *data, struct rule_error *err);

/* Submitted form values: [{customId, value}] (a text) or [{customId, values}] (a select), at
 * most 5, texts up to 4000 characters. */
json_t *rule_interaction_clean_form_values(json_t *values, struct rule_error *err);
/* Clean values against the clean form they answer: known fields once each, required ones
 * given, texts within minLength..maxLength, selections among the options and within
 * minValues..maxValues. 0 or -1 with the path. */
int rule_interaction_check_form(json_t *modal, json_t *values, struct rule_error *err);

/* The options typed so far while the person fills `focused` (an option with autocomplete):
 * known names once each, plain values up to 100 characters, nothing required yet. Returns
 * [{name, type, value, focused?}] with the focused one always present. */
json_t *rule_interaction_clean_partial_options(json_t *defined, json_t *given, const char *focused,
                                               struct rule_error *err);
/* An autocomplete answer's data.choices: at most 25 {name, value}, value a text or a number. */
json_t *rule_interaction_clean_choices(json_t *data, struct rule_error *err);

/* Select menu values: at most 25 strings of up to 100 characters. */
json_t *rule_interaction_clean_select_values(json_t *values, struct rule_error *err);

/* The component with that customId anywhere in a message's components, or NULL. */
json_t *rule_interaction_find_component(json_t *components, const char *custom_id);

#endif
