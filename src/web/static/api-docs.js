// The interactive API documentation: draws every operation of the served
// OpenAPI document and sends a request with the token typed into the page.
// Elements are built as text only: nothing from the document or from an
// answer is parsed as HTML.
'use strict';
(function () {
  const root = document.getElementById('api-operations');
  const token = document.getElementById('api-token');
  document.getElementById('api-token-form').addEventListener('submit', (e) => e.preventDefault());

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (name === 'class') node.className = value;
      else node.setAttribute(name, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  // The schema a `$ref` names, or the schema itself.
  function resolve(doc, schema) {
    let seen = 0;
    while (schema && schema.$ref && seen++ < 16) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      schema = ((doc.components || {}).schemas || {})[name];
    }
    return schema || {};
  }

  // A value of `schema`'s shape to start a request body from.
  function example(doc, schema, depth) {
    schema = resolve(doc, schema);
    if (depth > 6) return null;
    if (schema.example !== undefined) return schema.example;
    if (schema.enum) return schema.enum[0];
    for (const key of ['oneOf', 'anyOf']) {
      if (schema[key]) {
        const first = schema[key].find((s) => resolve(doc, s).type !== 'null') || schema[key][0];
        return example(doc, first, depth + 1);
      }
    }
    if (schema.allOf) {
      return Object.assign({}, ...schema.allOf.map((s) => example(doc, s, depth + 1)));
    }
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    switch (type) {
      case 'object': {
        const value = {};
        for (const [name, property] of Object.entries(schema.properties || {})) {
          if ((schema.required || []).includes(name)) value[name] = example(doc, property, depth + 1);
        }
        return value;
      }
      case 'array': return [example(doc, schema.items || {}, depth + 1)];
      case 'integer': case 'number': return 0;
      case 'boolean': return false;
      case 'string': return '';
      default: return null;
    }
  }

  function field(parameter) {
    const id = 'p-' + Math.random().toString(36).slice(2);
    const label = el('label', { for: id }, parameter.name, ' ',
      el('span', { class: 'muted' }, '(' + parameter.in + (parameter.required ? ', required' : '') + ')'));
    const input = el('input', { id, type: 'text', name: parameter.name, 'data-in': parameter.in });
    if (parameter.required) input.required = true;
    return [label, input, parameter.description ? el('p', { class: 'muted hint' }, parameter.description) : null];
  }

  function operation(doc, path, method, op) {
    const details = el('details', { class: 'operation', 'data-operation': method.toUpperCase() + ' ' + path });
    details.append(el('summary', {},
      el('span', { class: 'method method-' + method }, method.toUpperCase()), ' ',
      el('code', {}, path), ' ', el('span', { class: 'muted' }, op.summary || '')));
    if (op.description) details.append(el('p', { class: 'description' }, op.description));

    const form = el('form', { class: 'try' });
    for (const parameter of op.parameters || []) form.append(...field(parameter).filter(Boolean));
    let body = null;
    const content = op.requestBody && (op.requestBody.content || {})['application/json'];
    if (content) {
      body = el('textarea', { rows: '8', spellcheck: 'false', 'aria-label': 'Request body' });
      body.value = JSON.stringify(example(doc, content.schema, 0), null, 2);
      form.append(el('label', {}, 'Body (JSON)'), body);
    }
    const answer = el('pre', { class: 'answer', hidden: '' });
    form.append(el('button', { type: 'submit' }, 'Send'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      let url = path;
      const query = new URLSearchParams();
      const headers = {};
      for (const input of form.querySelectorAll('input[data-in]')) {
        if (input.value === '') continue;
        const where = input.getAttribute('data-in');
        if (where === 'path') url = url.replace('{' + input.name + '}', encodeURIComponent(input.value));
        else if (where === 'query') query.append(input.name, input.value);
        else if (where === 'header') headers[input.name] = input.value;
      }
      if (query.toString()) url += '?' + query.toString();
      if (token.value) headers.Authorization = 'Bearer ' + token.value.trim();
      const init = { method: method.toUpperCase(), headers };
      if (body) {
        headers['Content-Type'] = 'application/json';
        init.body = body.value;
      }
      answer.hidden = false;
      answer.textContent = init.method + ' ' + url + ' …';
      try {
        const response = await fetch(url, init);
        const text = await response.text();
        let shown = text;
        try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (_) { /* not JSON */ }
        answer.textContent = response.status + ' ' + response.statusText + '\n\n' + shown;
        answer.setAttribute('data-status', String(response.status));
      } catch (error) {
        answer.textContent = 'The request failed: ' + error;
      }
    });
    details.append(form, answer);

    const responses = el('dl', { class: 'responses' });
    for (const [status, response] of Object.entries(op.responses || {})) {
      responses.append(el('dt', {}, status), el('dd', {}, (response && response.description) || ''));
    }
    details.append(el('h3', {}, 'Answers'), responses);
    return details;
  }

  function render(doc) {
    root.textContent = '';
    for (const [path, item] of Object.entries(doc.paths || {})) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        if (item[method]) root.append(operation(doc, path, method, item[method]));
      }
    }
  }

  fetch('/api/openapi.json')
    .then((response) => response.json())
    .then(render)
    .catch((error) => { root.textContent = 'Cannot read the API document: ' + error; });
})();
