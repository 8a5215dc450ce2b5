export const id = 580;
export const ids = [580];
export const modules = {

/***/ 1580:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   VIEWER_QUERY: () => (/* binding */ VIEWER_QUERY),
/* harmony export */   readTokenIdentity: () => (/* binding */ readTokenIdentity),
/* harmony export */   writtenBy: () => (/* binding */ writtenBy)
/* harmony export */ });
// Who the token acts as, so that an issue or a comment is ours only when we wrote it: not because
// it carries our marker (anyone can paste it). Asked with GraphQL's `viewer { login databaseId }`,
// the one question GitHub answers for the three kinds of token: a workflow's GITHUB_TOKEN
// (github-actions[bot]), a GitHub App's installation token (<app>[bot]) and a personal access
// token (its user). REST `GET /user` answers 403 to installation tokens, and `GET /app` needs the
// App's own JWT. The REST answers then name the author of each issue and comment by the same id.
const VIEWER_QUERY = 'query { viewer { login databaseId } }';
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}(?:\[bot\])?$/;
async function readTokenIdentity(octokit) {
    const data = await octokit.graphql(VIEWER_QUERY);
    const login = data?.viewer?.login;
    const id = data?.viewer?.databaseId;
    if (typeof login !== 'string' || !LOGIN.test(login)) {
        throw new Error('GitHub did not say which account the token acts as (GraphQL viewer)');
    }
    return { login, ...(typeof id === 'number' && Number.isSafeInteger(id) ? { id } : {}) };
}
/** Whether `author` (an issue's or a comment's `user`) is the token's account: by id when GitHub
 *  gave one (a login can be renamed and taken again), else by login. */
function writtenBy(author, identity) {
    if (!author)
        return false;
    if (identity.id !== undefined)
        return author.id === identity.id;
    return (typeof author.login === 'string' && author.login.toLowerCase() === identity.login.toLowerCase());
}


/***/ })

};
